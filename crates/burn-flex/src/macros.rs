//! Dispatch macros: bind the host element type of a runtime dtype so that an operation is
//! written once, generically, and instantiated for every dtype it supports.

/// Expands `$body` once per listed dtype with `$E` bound to its host type; other dtypes panic
/// naming `$op` and the expected family.
macro_rules! dispatch_arms {
    ($dtype:expr, $op:expr, $what:literal, $E:ident => $body:expr, [$($variant:ident => $ty:ty),*]) => {{
        match $dtype {
            $(burn_std::DType::$variant => {
                #[allow(dead_code)]
                type $E = $ty;
                $body
            })*
            #[allow(unreachable_patterns)]
            other => panic!("{}: expected {} tensor, got dtype {}", $op, $what, other),
        }
    }};
}

/// Runs `$body` with `$E` bound to the host type of `$dtype` (every dtype but quantized).
macro_rules! with_elem {
    ($dtype:expr, $E:ident => $body:expr) => {
        burn_std::with_dtype!($dtype, $E => $body)
    };
}

/// Runs `$body` with `$E` bound to the float host type of `$dtype`; panics naming `$op` otherwise.
macro_rules! with_float {
    ($dtype:expr, $op:expr, $E:ident => $body:expr) => {
        dispatch_arms!($dtype, $op, "a float", $E => $body,
            [F64 => f64, F32 => f32, F16 => burn_std::f16, BF16 => burn_std::bf16])
    };
}

/// Runs `$body` with `$E` bound to the integer host type of `$dtype`; panics naming `$op`
/// otherwise.
macro_rules! with_int {
    ($dtype:expr, $op:expr, $E:ident => $body:expr) => {
        dispatch_arms!($dtype, $op, "an int", $E => $body,
            [I64 => i64, I32 => i32, I16 => i16, I8 => i8, U64 => u64, U32 => u32, U16 => u16, U8 => u8])
    };
}

/// Runs `$body` with `$E` bound to the numeric (float or integer) host type of `$dtype`; panics
/// naming `$op` for bool and quantized dtypes.
macro_rules! with_num {
    ($dtype:expr, $op:expr, $E:ident => $body:expr) => {
        dispatch_arms!($dtype, $op, "a numeric (float or int)", $E => $body,
            [F64 => f64, F32 => f32, F16 => burn_std::f16, BF16 => burn_std::bf16,
             I64 => i64, I32 => i32, I16 => i16, I8 => i8, U64 => u64, U32 => u32, U16 => u16, U8 => u8])
    };
}
