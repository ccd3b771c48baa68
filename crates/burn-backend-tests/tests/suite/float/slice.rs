//! Slicing with `s![..]` (negative indices, steps, negative steps), slice_assign, slice_fill,
//! narrow, split, split_with_sizes and chunk.

use burn::tensor::{Slice, s};
use burn_backend_tests::reference::layout::Range;
use burn_backend_tests::{Env, Layout, RefArray};

fn input(env: &Env) -> RefArray {
    env.random(&[4, 5, 6], -2.0, 2.0, 91)
}

/// `start..end` with an optional end.
fn r(start: isize, end: Option<isize>) -> Range {
    Range::new(start, end)
}

#[test]
fn slice_with_ranges() {
    let env = Env::new(crate::device());
    let a = input(&env);
    for layout in Layout::ALL {
        let x = || env.float_in::<3>(&a, layout);
        let cases = [
            ("1..3", x().slice(1..3), a.slice(&[r(1, Some(3))])),
            (
                "[0..2, 1..4]",
                x().slice([0..2, 1..4]),
                a.slice(&[r(0, Some(2)), r(1, Some(4))]),
            ),
            (
                "s![.., 2..]",
                x().slice(s![.., 2..]),
                a.slice(&[Range::full(), r(2, None)]),
            ),
            (
                "s![1, .., ..3]",
                x().slice(s![1, .., ..3]),
                a.slice(&[r(1, Some(2)), Range::full(), r(0, Some(3))]),
            ),
            ("s![0..=1]", x().slice(s![0..=1]), a.slice(&[r(0, Some(2))])),
        ];
        for (name, got, expected) in cases {
            env.check(&format!("slice {name} ({layout:?})"), got, &expected, 0.0);
        }
    }
}

#[test]
// `1..-1` is not empty here: a negative end counts from the end of the dim.
#[allow(clippy::reversed_empty_ranges)]
fn slice_with_negative_indices() {
    // x[-1], x[:, -3:], x[1:-1] in PyTorch (an index keeps its dim here, with size 1)
    let env = Env::new(crate::device());
    let a = input(&env);
    for layout in Layout::ALL {
        let x = || env.float_in::<3>(&a, layout);
        let cases = [
            ("s![-1]", x().slice(s![-1]), a.slice(&[r(-1, None)])),
            (
                "s![.., -3..]",
                x().slice(s![.., -3..]),
                a.slice(&[Range::full(), r(-3, None)]),
            ),
            (
                "s![1..-1]",
                x().slice(s![1..-1]),
                a.slice(&[r(1, Some(-1))]),
            ),
            (
                "s![-3..-1, .., -2]",
                x().slice(s![-3..-1, .., -2]),
                a.slice(&[r(-3, Some(-1)), Range::full(), r(-2, Some(-1))]),
            ),
        ];
        for (name, got, expected) in cases {
            env.check(&format!("slice {name} ({layout:?})"), got, &expected, 0.0);
        }
    }
}

#[test]
fn slice_with_steps() {
    // x[::2], x[:, 1::3], and a negative step: Burn walks the range backwards (x[..;-1] is
    // torch.flip(x, [0])).
    let env = Env::new(crate::device());
    let a = input(&env);
    for layout in Layout::ALL {
        let x = || env.float_in::<3>(&a, layout);
        let cases = [
            (
                "s![..;2]",
                x().slice(s![..;2]),
                a.slice(&[Range::full().step(2)]),
            ),
            (
                "s![.., 1..;3]",
                x().slice(s![.., 1..;3]),
                a.slice(&[Range::full(), r(1, None).step(3)]),
            ),
            ("s![..;-1]", x().slice(s![..;-1]), a.flip(&[0])),
            (
                "s![.., .., 1..5;-2]",
                x().slice(s![.., .., 1..5;-2]),
                a.slice(&[Range::full(), Range::full(), r(1, Some(5)).step(-2)]),
            ),
            (
                "s![..;3, ..;-2, -4..;2]",
                x().slice(s![..;3, ..;-2, -4..;2]),
                a.slice(&[
                    Range::full().step(3),
                    Range::full().step(-2),
                    r(-4, None).step(2),
                ]),
            ),
        ];
        for (name, got, expected) in cases {
            env.check(&format!("slice {name} ({layout:?})"), got, &expected, 0.0);
        }
    }
}

#[test]
fn slice_of_a_slice() {
    let env = Env::new(crate::device());
    let a = input(&env);
    let got = env
        .float::<3>(&a)
        .slice(s![1.., ..;2])
        .slice(s![..2, 1.., 3..]);
    let expected = a.slice(&[r(1, None), Range::full().step(2)]).slice(&[
        r(0, Some(2)),
        r(1, None),
        r(3, None),
    ]);
    env.check("slice of slice", got, &expected, 0.0);
    let explicit = vec![Slice::new(0, Some(3), 2), Slice::full(), Slice::index(-1)];
    let got = env.float::<3>(&a).slice(&explicit);
    let expected = a.slice(&[r(0, Some(3)).step(2), Range::full(), r(-1, None)]);
    env.check("slice with Slice values", got, &expected, 0.0);
}

#[test]
fn value_at_reads_one_element() {
    let env = Env::new(crate::device());
    let a = input(&env);
    let x = env.float_in::<3>(&a, Layout::Flipped);
    assert_eq!(
        x.value_at::<f64>([1, 2, 3]),
        a.at(&[1, 2, 3]),
        "value_at [1, 2, 3]"
    );
    assert_eq!(
        x.value_at::<f64>([3, 4, 5]),
        a.at(&[3, 4, 5]),
        "value_at [3, 4, 5]"
    );
}

#[test]
fn slice_assign() {
    let env = Env::new(crate::device());
    let a = input(&env);
    let v = env.random(&[2, 5, 3], -9.0, -5.0, 92);
    let expected = a.slice_assign(&[r(1, Some(3)), Range::full(), r(2, Some(5))], &v);
    for layout in Layout::ALL {
        let got = env
            .float_in::<3>(&a, layout)
            .slice_assign(s![1..3, .., 2..5], env.float_in(&v, layout));
        env.check(&format!("slice_assign ({layout:?})"), got, &expected, 0.0);
    }
    let w = env.random(&[2, 5, 2], -9.0, -5.0, 93);
    let ranges = [Range::full().step(2), Range::full(), r(-2, None)];
    let got = env
        .float::<3>(&a)
        .slice_assign(s![..;2, .., -2..], env.float(&w));
    env.check(
        "slice_assign stepped, negative",
        got,
        &a.slice_assign(&ranges, &w),
        0.0,
    );
    let w = env.random(&[4, 5, 2], -9.0, -5.0, 94);
    let ranges = [Range::full(), Range::full(), r(0, Some(4)).step(-2)];
    let got = env
        .float::<3>(&a)
        .slice_assign(s![.., .., 0..4;-2], env.float(&w));
    env.check(
        "slice_assign negative step",
        got,
        &a.slice_assign(&ranges, &w),
        0.0,
    );
}

#[test]
fn slice_fill() {
    let env = Env::new(crate::device());
    let a = input(&env);
    let ranges = [r(0, Some(2)), r(1, None).step(2)];
    let filler = RefArray::full(&[2, 2, 6], 7.5);
    let expected = a.slice_assign(&ranges, &filler);
    for layout in Layout::ALL {
        let got = env
            .float_in::<3>(&a, layout)
            .slice_fill(s![0..2, 1..;2], 7.5);
        env.check(&format!("slice_fill ({layout:?})"), got, &expected, 0.0);
    }
    let got = env
        .float::<3>(&a)
        .slice_fill(s![-1, -1, -1], f64::NEG_INFINITY);
    let mut expected = a.clone();
    expected.set(&[3, 4, 5], f64::NEG_INFINITY);
    env.check("slice_fill one element", got, &expected, 0.0);
}

#[test]
fn narrow() {
    // torch.narrow(x, 1, 1, 3) = x[:, 1:4]
    let env = Env::new(crate::device());
    let a = input(&env);
    for layout in Layout::ALL {
        let got = env.float_in::<3>(&a, layout).narrow(1, 1, 3);
        env.check(
            &format!("narrow 1 1 3 ({layout:?})"),
            got,
            &a.slice(&[Range::full(), r(1, Some(4))]),
            0.0,
        );
        let got = env.float_in::<3>(&a, layout).narrow(2, 5, 1);
        let expected = a.slice(&[Range::full(), Range::full(), r(5, Some(6))]);
        env.check(&format!("narrow 2 5 1 ({layout:?})"), got, &expected, 0.0);
    }
}

#[test]
fn split_and_split_with_sizes() {
    // torch.split(x, 2, dim=1) of a dim of 5: sizes [2, 2, 1]; split(x, [1, 4], dim=1)
    let env = Env::new(crate::device());
    let a = input(&env);
    let pieces = env.float::<3>(&a).split(2, 1);
    assert_eq!(pieces.len(), 3, "split 2 of 5");
    for (k, (piece, (start, end))) in pieces.into_iter().zip([(0, 2), (2, 4), (4, 5)]).enumerate() {
        let expected = a.slice(&[Range::full(), r(start, Some(end))]);
        env.check(&format!("split piece {k}"), piece, &expected, 0.0);
    }
    let pieces = env
        .float_in::<3>(&a, Layout::Transposed)
        .split_with_sizes(vec![1, 4], 1);
    assert_eq!(pieces.len(), 2, "split_with_sizes [1, 4]");
    for (k, (piece, (start, end))) in pieces.into_iter().zip([(0, 1), (1, 5)]).enumerate() {
        let expected = a.slice(&[Range::full(), r(start, Some(end))]);
        env.check(
            &format!("split_with_sizes piece {k}"),
            piece,
            &expected,
            0.0,
        );
    }
}

#[test]
fn chunk_like_torch() {
    // torch.chunk of a dim of 6 into 4: chunk size ceil(6/4) = 2, giving 3 pieces [2, 2, 2];
    // of a dim of 5 into 2: [3, 2]; of a dim of 4 into 6: four pieces of 1
    let env = Env::new(crate::device());
    let a = input(&env);
    let sizes = |pieces: &Vec<burn::tensor::Tensor<3>>, dim: usize| -> Vec<usize> {
        pieces.iter().map(|p| p.dims()[dim]).collect()
    };
    let pieces = env.float::<3>(&a).chunk(4, 2);
    assert_eq!(sizes(&pieces, 2), vec![2, 2, 2], "chunk 6 into 4");
    let pieces = env.float::<3>(&a).chunk(2, 1);
    assert_eq!(sizes(&pieces, 1), vec![3, 2], "chunk 5 into 2");
    env.check(
        "chunk piece 1",
        pieces[1].clone(),
        &a.slice(&[Range::full(), r(3, Some(5))]),
        0.0,
    );
    let pieces = env.float::<3>(&a).chunk(6, 0);
    assert_eq!(sizes(&pieces, 0), vec![1, 1, 1, 1], "chunk 4 into 6");
    env.check(
        "chunk piece 3",
        pieces[3].clone(),
        &a.slice(&[r(3, Some(4))]),
        0.0,
    );
}
