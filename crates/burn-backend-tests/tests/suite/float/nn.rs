//! Layers as functions: embedding, linear, scaled dot-product attention (mask, causal, scale,
//! softcap), layer and batch normalization.

use burn::tensor::module::{
    BatchNormTrainOutput, attention, attention_fallback, batch_norm, batch_norm_train, embedding,
    group_norm, layer_norm, linear,
};
use burn::tensor::ops::{AttentionModuleOptions, CausalAlignment};
use burn_backend_tests::reference::attention::{
    AttentionParams, attention as reference, attention_with_bias,
};
use burn_backend_tests::{Env, Layout, RefArray};

#[test]
fn embedding_picks_rows() {
    // torch.nn.functional.embedding(indices, weights)
    let env = Env::new(crate::device());
    let weights = env.random(&[6, 4], -1.0, 1.0, 261);
    let indices = env.random_int(&[2, 5], 0, 6, 262);
    let expected = RefArray::from_fn(&[2, 5, 4], |i| {
        weights.at(&[indices.at(&[i[0], i[1]]) as usize, i[2]])
    });
    for layout in Layout::ALL {
        let got = embedding(env.float_in(&weights, layout), env.int_in(&indices, layout));
        env.check(&format!("embedding ({layout:?})"), got, &expected, 0.0);
    }
}

#[test]
fn linear_with_and_without_bias() {
    // x @ W + b with Burn's weight layout [d_in, d_out] (torch: x @ W.T + b with W [d_out, d_in])
    let env = Env::new(crate::device());
    let x = env.random(&[2, 3, 5], -1.0, 1.0, 263);
    let w = env.random(&[5, 4], -1.0, 1.0, 264);
    let b = env.random(&[4], -1.0, 1.0, 265);
    let xw = x.matmul(&w.reshape(&[1, 5, 4]));
    let expected = xw.zip(&b, |p, q| p + q);
    for layout in Layout::ALL {
        let got = linear(
            env.float_in::<3>(&x, layout),
            env.float_in(&w, layout),
            Some(env.float(&b)),
        );
        env.check(&format!("linear ({layout:?})"), got, &expected, 3.0);
    }
    let got = linear(env.float::<3>(&x), env.float(&w), None);
    env.check("linear no bias", got, &xw, 3.0);
    let x2 = env.random(&[7, 5], -1.0, 1.0, 266);
    let got = linear(env.float::<2>(&x2), env.float(&w), Some(env.float(&b)));
    env.check(
        "linear rank 2",
        got,
        &x2.matmul(&w).zip(&b, |p, q| p + q),
        3.0,
    );
}

struct Inputs {
    q: RefArray,
    k: RefArray,
    v: RefArray,
}

fn inputs(env: &Env, lq: usize, lk: usize, seed: u64) -> Inputs {
    Inputs {
        q: env.random(&[2, 3, lq, 8], -1.0, 1.0, seed),
        k: env.random(&[2, 3, lk, 8], -1.0, 1.0, seed + 1),
        v: env.random(&[2, 3, lk, 5], -1.0, 1.0, seed + 2),
    }
}

#[test]
fn attention_plain() {
    let env = Env::new(crate::device());
    let t = inputs(&env, 6, 7, 271);
    let expected = reference(&t.q, &t.k, &t.v, None, AttentionParams::default());
    for layout in Layout::ALL {
        let got = attention(
            env.float_in(&t.q, layout),
            env.float_in(&t.k, layout),
            env.float_in(&t.v, layout),
            None,
            None,
            AttentionModuleOptions::default(),
        );
        env.check(&format!("attention ({layout:?})"), got, &expected, 4.0);
    }
}

#[test]
fn attention_with_mask() {
    // mask true = may not attend; broadcast over heads
    let env = Env::new(crate::device());
    let t = inputs(&env, 4, 6, 272);
    let mut mask = env.random_bool(&[2, 1, 4, 6], 0.4, 273);
    for b in 0..2 {
        for q in 0..4 {
            mask.set(&[b, 0, q, q], 0.0); // every query keeps at least one key
        }
    }
    let expected = reference(&t.q, &t.k, &t.v, Some(&mask), AttentionParams::default());
    let got = attention(
        env.float(&t.q),
        env.float(&t.k),
        env.float(&t.v),
        Some(env.bool(&mask)),
        None,
        AttentionModuleOptions::default(),
    );
    env.check("attention mask", got, &expected, 4.0);
}

#[test]
fn attention_causal() {
    let env = Env::new(crate::device());
    let t = inputs(&env, 5, 5, 274);
    let params = AttentionParams {
        causal: true,
        ..Default::default()
    };
    let expected = reference(&t.q, &t.k, &t.v, None, params);
    let options = AttentionModuleOptions {
        is_causal: true,
        ..Default::default()
    };
    let got = attention(
        env.float(&t.q),
        env.float(&t.k),
        env.float(&t.v),
        None,
        None,
        options,
    );
    env.check("attention causal", got, &expected, 4.0);
}

#[test]
fn attention_causal_with_mask() {
    let env = Env::new(crate::device());
    let t = inputs(&env, 5, 5, 275);
    let mut mask = RefArray::full(&[1, 1, 5, 5], 0.0);
    mask.set(&[0, 0, 3, 1], 1.0);
    mask.set(&[0, 0, 4, 0], 1.0);
    let params = AttentionParams {
        causal: true,
        ..Default::default()
    };
    let expected = reference(&t.q, &t.k, &t.v, Some(&mask), params);
    let options = AttentionModuleOptions {
        is_causal: true,
        ..Default::default()
    };
    let got = attention(
        env.float(&t.q),
        env.float(&t.k),
        env.float(&t.v),
        Some(env.bool(&mask)),
        None,
        options,
    );
    env.check("attention causal mask", got, &expected, 4.0);
}

#[test]
fn attention_scale_and_softcap() {
    let env = Env::new(crate::device());
    let t = inputs(&env, 4, 4, 276);
    let q = t.q.map(|v| v * 4.0);
    let params = AttentionParams {
        scale: Some(0.7),
        softcap: Some(2.0),
        ..Default::default()
    };
    let expected = reference(&q, &t.k, &t.v, None, params);
    let options = AttentionModuleOptions {
        scale: Some(0.7),
        softcap: Some(2.0),
        ..Default::default()
    };
    let got = attention(
        env.float(&q),
        env.float(&t.k),
        env.float(&t.v),
        None,
        None,
        options,
    );
    env.check("attention scale softcap", got, &expected, 4.0);
    let params = AttentionParams {
        scale: Some(0.25),
        ..Default::default()
    };
    let options = AttentionModuleOptions {
        scale: Some(0.25),
        ..Default::default()
    };
    let got = attention(
        env.float(&q),
        env.float(&t.k),
        env.float(&t.v),
        None,
        None,
        options,
    );
    env.check(
        "attention scale",
        got,
        &reference(&q, &t.k, &t.v, None, params),
        4.0,
    );
}

#[test]
fn attention_of_a_single_key_returns_its_value() {
    // softmax over one key is 1: the output is v broadcast over the queries
    let env = Env::new(crate::device());
    let t = inputs(&env, 3, 1, 277);
    let got = attention(
        env.float(&t.q),
        env.float(&t.k),
        env.float(&t.v),
        None,
        None,
        AttentionModuleOptions::default(),
    );
    env.check(
        "attention one key",
        got,
        &t.v.broadcast_to(&[2, 3, 3, 5]),
        1.0,
    );
}

#[test]
fn attention_with_bias_grouped_heads_and_alignment() {
    // torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=bias, enable_gqa=True)
    // with the causal diagonal at either corner: 6 query heads over 2 key/value heads, 3
    // queries over 5 keys, a bias broadcast over the batch, a mask over the heads.
    let env = Env::new(crate::device());
    let q = env.random(&[2, 6, 3, 4], -1.0, 1.0, 291);
    let k = env.random(&[2, 2, 5, 4], -1.0, 1.0, 292);
    let v = env.random(&[2, 2, 5, 3], -1.0, 1.0, 293);
    let bias = env.random(&[1, 6, 3, 5], -2.0, 2.0, 294);
    let mut mask = RefArray::full(&[2, 1, 3, 5], 0.0);
    mask.set(&[1, 0, 2, 1], 1.0);
    for (is_causal, alignment) in [
        (false, CausalAlignment::BottomRight),
        (true, CausalAlignment::BottomRight),
        (true, CausalAlignment::TopLeft),
    ] {
        let params = AttentionParams {
            causal: is_causal,
            top_left: alignment == CausalAlignment::TopLeft,
            ..Default::default()
        };
        let expected = attention_with_bias(&q, &k, &v, Some(&mask), Some(&bias), params);
        let options = AttentionModuleOptions {
            is_causal,
            causal_alignment: alignment,
            ..Default::default()
        };
        let what = format!("attention bias gqa causal={is_causal} {alignment:?}");
        for layout in Layout::ALL {
            let got = attention(
                env.float_in(&q, layout),
                env.float_in(&k, layout),
                env.float_in(&v, layout),
                Some(env.bool(&mask)),
                Some(env.float_in(&bias, layout)),
                options,
            );
            env.check(&format!("{what} ({layout:?})"), got, &expected, 4.0);
        }
        let got = attention_fallback(
            env.float(&q),
            env.float(&k),
            env.float(&v),
            Some(env.bool(&mask)),
            Some(env.float(&bias)),
            options,
        );
        env.check(&format!("{what} fallback"), got, &expected, 4.0);
    }
}

#[test]
fn attention_propagates_nan_scores() {
    // A NaN in a query row makes that row's scores NaN: its output is NaN (as in
    // torch.nn.functional.scaled_dot_product_attention), the other rows stay finite.
    use burn::tensor::Tensor;
    let device = crate::device();
    let q = Tensor::<4>::from_floats([[[[f32::NAN, 0.0], [1.0, 0.0]]]], &device);
    let k = Tensor::<4>::from_floats([[[[1.0, 0.0], [0.0, 1.0]]]], &device);
    let v = Tensor::<4>::from_floats([[[[1.0, 2.0], [3.0, 4.0]]]], &device);
    let out = attention(q, k, v, None, None, AttentionModuleOptions::default());
    let values = out.into_data().to_vec::<f64>().unwrap();
    assert!(
        values[0].is_nan() && values[1].is_nan(),
        "row 0: {values:?}"
    );
    assert!(
        values[2].is_finite() && values[3].is_finite(),
        "row 1: {values:?}"
    );
}

#[test]
fn layer_norm_over_the_last_dim() {
    // torch.nn.functional.layer_norm(x, [d], gamma, beta, eps)
    let env = Env::new(crate::device());
    let (rows, d) = (6, 37);
    let x = env.random(&[2, 3, d], -2.0, 3.0, 281);
    let gamma = env.random(&[d], 0.5, 1.5, 282);
    let beta = env.random(&[d], -1.0, 1.0, 283);
    let eps = 1e-5;
    let mut normalized = vec![0.0; rows * d];
    for r in 0..rows {
        let row: Vec<f64> = (0..d).map(|j| x.at(&[r / 3, r % 3, j])).collect();
        let mean = row.iter().sum::<f64>() / d as f64;
        let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / d as f64;
        for j in 0..d {
            normalized[r * d + j] = (row[j] - mean) / (var + eps).sqrt();
        }
    }
    let expected = RefArray::from_fn(&[2, 3, d], |i| {
        normalized[(i[0] * 3 + i[1]) * d + i[2]] * gamma.at(&[i[2]]) + beta.at(&[i[2]])
    });
    let unshifted = RefArray::from_fn(&[2, 3, d], |i| {
        normalized[(i[0] * 3 + i[1]) * d + i[2]] * gamma.at(&[i[2]])
    });
    for layout in Layout::ALL {
        let got = layer_norm(
            env.float_in::<3>(&x, layout),
            env.float_in(&gamma, layout),
            Some(env.float_in(&beta, layout)),
            eps,
        );
        env.check(&format!("layer_norm ({layout:?})"), got, &expected, 8.0);
    }
    let got = layer_norm(env.float::<3>(&x), env.float(&gamma), None, eps);
    env.check("layer_norm without shift", got, &unshifted, 8.0);
}

#[test]
fn batch_norm_with_given_statistics() {
    // torch.nn.functional.batch_norm(x, mean, var, gamma, beta, training=False, eps=eps)
    let env = Env::new(crate::device());
    let (n, c, l) = (2, 3, 4);
    let x = env.random(&[n, c, l], -2.0, 3.0, 295);
    let gamma = env.random(&[c], 0.5, 1.5, 296);
    let beta = env.random(&[c], -1.0, 1.0, 297);
    let mean = env.random(&[c], -1.0, 1.0, 298);
    let var = env.random(&[c], 0.5, 2.0, 299);
    let eps = 1e-3;
    let expected = RefArray::from_fn(&[n, c, l], |i| {
        let ch = [i[1]];
        (x.at(i) - mean.at(&ch)) / (var.at(&ch) + eps).sqrt() * gamma.at(&ch) + beta.at(&ch)
    });
    let got = batch_norm(
        env.float::<3>(&x),
        env.float(&gamma),
        env.float(&beta),
        env.float(&mean),
        env.float(&var),
        eps,
    );
    env.check("batch_norm given statistics", got, &expected, 8.0);
}

#[test]
fn batch_norm_with_the_batch_statistics() {
    // torch.nn.functional.batch_norm(x, None, None, gamma, beta, training=True, eps=eps), and the
    // batch mean and biased variance per channel
    let env = Env::new(crate::device());
    let (n, c, h, w) = (3, 4, 5, 6);
    let x = env.random(&[n, c, h, w], -2.0, 3.0, 284);
    let gamma = env.random(&[c], 0.5, 1.5, 285);
    let beta = env.random(&[c], -1.0, 1.0, 286);
    let eps = 1e-5;
    let count = (n * h * w) as f64;
    let mut means = vec![0.0; c];
    let mut vars = vec![0.0; c];
    for ch in 0..c {
        let values = || {
            (0..n)
                .flat_map(move |i| (0..h * w).map(move |p| (i, p)))
                .map(|(i, p)| x.at(&[i, ch, p / w, p % w]))
        };
        means[ch] = values().sum::<f64>() / count;
        vars[ch] = values().map(|v| (v - means[ch]).powi(2)).sum::<f64>() / count;
    }
    let expected = RefArray::from_fn(&[n, c, h, w], |i| {
        let ch = i[1];
        (x.at(i) - means[ch]) / (vars[ch] + eps).sqrt() * gamma.at(&[ch]) + beta.at(&[ch])
    });
    for layout in Layout::ALL {
        let BatchNormTrainOutput {
            output: got,
            mean,
            variance: var,
        } = batch_norm_train(
            env.float_in::<4>(&x, layout),
            env.float_in(&gamma, layout),
            env.float_in(&beta, layout),
            eps,
        );
        env.check(&format!("batch_norm ({layout:?})"), got, &expected, 8.0);
        env.check(
            "batch_norm mean",
            mean,
            &RefArray::new(&[c], means.clone()),
            8.0,
        );
        env.check(
            "batch_norm var",
            var,
            &RefArray::new(&[c], vars.clone()),
            8.0,
        );
    }
}

#[test]
fn group_norm_over_groups_of_channels() {
    // torch.nn.functional.group_norm(x, groups, gamma, beta, eps)
    let env = Env::new(crate::device());
    let eps = 1e-5;
    for (n, c, h, w, groups) in [(2, 6, 3, 4, 3), (3, 4, 2, 5, 1), (2, 4, 3, 3, 4)] {
        let x = env.random(&[n, c, h, w], -2.0, 3.0, 287);
        let gamma = env.random(&[c], 0.5, 1.5, 288);
        let beta = env.random(&[c], -1.0, 1.0, 289);
        let per_group = c / groups;
        let count = (per_group * h * w) as f64;
        // Mean and biased variance per (sample, group).
        let stats: Vec<(f64, f64)> = (0..n * groups)
            .map(|row| {
                let x = &x;
                let (i, g) = (row / groups, row % groups);
                let values = || {
                    (0..per_group * h * w).map(move |p| {
                        let ch = g * per_group + p / (h * w);
                        x.at(&[i, ch, p % (h * w) / w, p % w])
                    })
                };
                let mean = values().sum::<f64>() / count;
                (
                    mean,
                    values().map(|v| (v - mean).powi(2)).sum::<f64>() / count,
                )
            })
            .collect();
        let expected = RefArray::from_fn(&[n, c, h, w], |i| {
            let (mean, var) = stats[i[0] * groups + i[1] / per_group];
            (x.at(i) - mean) / (var + eps).sqrt() * gamma.at(&[i[1]]) + beta.at(&[i[1]])
        });
        for layout in Layout::ALL {
            let got = group_norm(
                env.float_in::<4>(&x, layout),
                env.float_in(&gamma, layout),
                env.float_in(&beta, layout),
                groups,
                eps,
            );
            env.check(
                &format!("group_norm {groups} groups ({layout:?})"),
                got,
                &expected,
                8.0,
            );
        }
    }
}
