//! Sorting along a dim: values, indices, descending, stability on ties, top-k.

use burn_backend_tests::{Env, Layout, RefArray};

/// Values on a coarse grid (many ties) so that stability is visible.
fn with_ties(env: &Env, seed: u64) -> RefArray {
    env.random_int(&[3, 4, 6], -2, 3, seed).map(|v| v * 0.25)
}

#[test]
fn sort_ascending_and_descending() {
    let env = Env::new(crate::device());
    let a = env.random(&[3, 4, 6], -2.0, 2.0, 211);
    for dim in 0..3 {
        for layout in Layout::ALL {
            let got = env.float_in::<3>(&a, layout).sort(dim);
            env.check(
                &format!("sort dim {dim} ({layout:?})"),
                got,
                &a.sort_with_indices(dim, false).0,
                0.0,
            );
            let got = env.float_in::<3>(&a, layout).sort_descending(dim);
            env.check(
                &format!("sort_descending dim {dim} ({layout:?})"),
                got,
                &a.sort_with_indices(dim, true).0,
                0.0,
            );
        }
    }
}

#[test]
fn sort_with_indices_is_stable() {
    // torch.sort(x, dim, stable=True): equal values keep their original order
    let env = Env::new(crate::device());
    let a = with_ties(&env, 212);
    for dim in 0..3 {
        let (values, indices) = a.sort_with_indices(dim, false);
        for layout in Layout::ALL {
            let (v, i) = env.float_in::<3>(&a, layout).sort_with_indices(dim);
            env.check(
                &format!("sort_with_indices values dim {dim} ({layout:?})"),
                v,
                &values,
                0.0,
            );
            env.check_int(
                &format!("sort_with_indices indices dim {dim} ({layout:?})"),
                i,
                &indices,
            );
        }
    }
}

#[test]
fn sort_descending_with_indices_is_stable() {
    // torch.sort(x, dim, descending=True, stable=True)
    let env = Env::new(crate::device());
    let a = with_ties(&env, 213);
    for dim in 0..3 {
        let (values, indices) = a.sort_with_indices(dim, true);
        for layout in Layout::ALL {
            let (v, i) = env
                .float_in::<3>(&a, layout)
                .sort_descending_with_indices(dim);
            env.check(
                &format!("sort_descending values dim {dim} ({layout:?})"),
                v,
                &values,
                0.0,
            );
            env.check_int(
                &format!("sort_descending indices dim {dim} ({layout:?})"),
                i,
                &indices,
            );
        }
    }
}

#[test]
fn argsort_both_directions() {
    let env = Env::new(crate::device());
    let a = with_ties(&env, 214);
    for dim in 0..3 {
        for layout in Layout::ALL {
            let got = env.float_in::<3>(&a, layout).argsort(dim);
            env.check_int(
                &format!("argsort dim {dim} ({layout:?})"),
                got,
                &a.sort_with_indices(dim, false).1,
            );
            let got = env.float_in::<3>(&a, layout).argsort_descending(dim);
            env.check_int(
                &format!("argsort_descending dim {dim} ({layout:?})"),
                got,
                &a.sort_with_indices(dim, true).1,
            );
        }
    }
}

#[test]
fn sort_of_a_known_row() {
    // torch.sort(torch.tensor([3., -1., 2., -1., 0.]), stable=True)
    //   = (values=[-1., -1., 0., 2., 3.], indices=[1, 3, 4, 2, 0])
    let env = Env::new(crate::device());
    let a = RefArray::new(&[5], vec![3.0, -1.0, 2.0, -1.0, 0.0]);
    let (v, i) = env.float::<1>(&a).sort_with_indices(0);
    env.check(
        "sort known",
        v,
        &RefArray::new(&[5], vec![-1.0, -1.0, 0.0, 2.0, 3.0]),
        0.0,
    );
    env.check_int(
        "sort known indices",
        i,
        &RefArray::new(&[5], vec![1.0, 3.0, 4.0, 2.0, 0.0]),
    );
}

#[test]
fn sort_long_rows() {
    let env = Env::new(crate::device());
    let a = env.random(&[2, 40_003], -100.0, 100.0, 215);
    let (values, indices) = a.sort_with_indices(1, false);
    let (v, i) = env.float::<2>(&a).sort_with_indices(1);
    env.check("sort long values", v, &values, 0.0);
    env.check_int("sort long indices", i, &indices);
}

#[test]
fn topk_and_topk_with_indices() {
    // torch.topk(x, k, dim) returns the k largest, largest first; on ties, the first ones
    let env = Env::new(crate::device());
    let a = with_ties(&env, 216);
    for dim in 0..3 {
        let k = 2;
        let (values, indices) = a.sort_with_indices(dim, true);
        let mut ranges = vec![burn_backend_tests::reference::layout::Range::full(); 3];
        ranges[dim] = burn_backend_tests::reference::layout::Range::new(0, Some(k));
        let (values, indices) = (values.slice(&ranges), indices.slice(&ranges));
        for layout in Layout::ALL {
            let got = env.float_in::<3>(&a, layout).topk(k as usize, dim);
            env.check(&format!("topk dim {dim} ({layout:?})"), got, &values, 0.0);
            let (v, i) = env
                .float_in::<3>(&a, layout)
                .topk_with_indices(k as usize, dim);
            env.check(
                &format!("topk_with_indices values dim {dim} ({layout:?})"),
                v,
                &values,
                0.0,
            );
            env.check_int(
                &format!("topk_with_indices indices dim {dim} ({layout:?})"),
                i,
                &indices,
            );
        }
    }
}

#[test]
fn topk_of_a_known_row() {
    // torch.topk(torch.tensor([1., 5., 3., 5., 2.]), 3) = (values=[5., 5., 3.], indices=[1, 3, 2])
    let env = Env::new(crate::device());
    let a = RefArray::new(&[5], vec![1.0, 5.0, 3.0, 5.0, 2.0]);
    let (v, i) = env.float::<1>(&a).topk_with_indices(3, 0);
    env.check(
        "topk known",
        v,
        &RefArray::new(&[3], vec![5.0, 5.0, 3.0]),
        0.0,
    );
    env.check_int(
        "topk known indices",
        i,
        &RefArray::new(&[3], vec![1.0, 3.0, 2.0]),
    );
}
