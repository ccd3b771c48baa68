//! Bitwise ops on ints: and, or, xor, not, left and right shifts (arithmetic for signed
//! types), with tensors and scalars.

use burn::tensor::{Int, Tensor};
use burn_backend_tests::{Env, Layout, RefArray, seed};

fn bits(f: impl Fn(i64, i64) -> i64) -> impl Fn(f64, f64) -> f64 {
    move |a, b| f(a as i64, b as i64) as f64
}

macro_rules! bitwise_tests {
    ($($name:ident / $scalar:ident: $reference:expr, $rhs:expr;)*) => {$(
        mod $name {
            use super::*;

            #[test]
            fn tensor() {
                let env = Env::new(crate::device());
                let name = stringify!($name);
                let a = env.random_int(&[3, 4, 5], -1000, 1000, seed(name));
                let b = env.random_int(&[3, 4, 5], $rhs.0, $rhs.1, seed(name) + 1);
                let expected = a.zip(&b, bits($reference));
                for layout in Layout::ALL {
                    let got = env.int_in::<3>(&a, layout).$name(env.int_in(&b, layout));
                    env.check_int(&format!("{name} ({layout:?})"), got, &expected);
                }
                let row = env.random_int(&[1, 4, 1], $rhs.0, $rhs.1, seed(name) + 2);
                let got = env.int::<3>(&a).$name(env.int(&row));
                env.check_int(&format!("{name} broadcast"), got, &a.zip(&row, bits($reference)));
            }

            #[test]
            fn scalar() {
                let env = Env::new(crate::device());
                let name = stringify!($scalar);
                let a = env.random_int(&[3, 4, 5], -1000, 1000, seed(name));
                let s = $rhs.1 - 1;
                for layout in Layout::ALL {
                    let got = env.int_in::<3>(&a, layout).$scalar(s);
                    let expected = a.map(|v| bits($reference)(v, s as f64));
                    env.check_int(&format!("{name} {s} ({layout:?})"), got, &expected);
                }
            }
        }
    )*};
}

bitwise_tests! {
    bitwise_and / bitwise_and_scalar: |a, b| a & b, (-1000i64, 1000i64);
    bitwise_or / bitwise_or_scalar: |a, b| a | b, (-1000i64, 1000i64);
    bitwise_xor / bitwise_xor_scalar: |a, b| a ^ b, (-1000i64, 1000i64);
    bitwise_left_shift / bitwise_left_shift_scalar: |a, b| a << b, (0i64, 8i64);
    bitwise_right_shift / bitwise_right_shift_scalar: |a, b| a >> b, (0i64, 8i64);
}

#[test]
fn bitwise_not() {
    // torch.bitwise_not(torch.tensor([0, 5, -1, -6])) = [-1, -6, 0, 5]
    let env = Env::new(crate::device());
    let a = RefArray::new(&[4], vec![0.0, 5.0, -1.0, -6.0]);
    for layout in Layout::ALL {
        let got = env.int_in::<1>(&a, layout).bitwise_not();
        env.check_int(
            &format!("bitwise_not ({layout:?})"),
            got,
            &RefArray::new(&[4], vec![-1.0, -6.0, 0.0, 5.0]),
        );
    }
}

#[test]
fn right_shift_is_arithmetic_for_signed() {
    // torch.tensor([-8, -7, 7]) >> 1 = [-4, -4, 3]
    let env = Env::new(crate::device());
    let x = Tensor::<1, Int>::from_ints([-8, -7, 7], &env.device);
    env.check_int(
        "right shift signed",
        x.bitwise_right_shift_scalar(1),
        &RefArray::new(&[3], vec![-4.0, -4.0, 3.0]),
    );
}
