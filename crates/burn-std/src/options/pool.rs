//! Options of max and average pooling, built from the kernel size as PyTorch's defaults have it
//! (stride = kernel, no padding, no dilation, floor mode).

use super::nonzero;

/// Generates a pooling options struct: the fields every pool has, `new` from the kernel size and
/// the `with_*` builders, plus the fields and builders given for that pool.
macro_rules! pool_options {
    (
        $(#[$doc:meta])*
        $name:ident {
            $(
                $(#[$field_doc:meta])*
                $field:ident: $ty:ty = $default:expr, $builder:ident;
            )*
        }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct $name<const N: usize> {
            /// Size of the window, per spatial dimension.
            pub kernel_size: [usize; N],
            /// Step between windows, per spatial dimension.
            pub stride: [usize; N],
            /// Padding `(begin, end)` per spatial dimension.
            pub padding: [(usize, usize); N],
            /// Spacing between the taps of a window.
            pub dilation: [usize; N],
            /// Whether the output size rounds up (a last partial window), not down.
            pub ceil_mode: bool,
            $(
                $(#[$field_doc])*
                pub $field: $ty,
            )*
        }

        impl<const N: usize> $name<N> {
            /// Options for windows of `kernel_size`, the stride equal to it, no padding, no
            /// dilation, floor mode.
            ///
            /// # Panics
            ///
            /// When a kernel size is zero.
            #[track_caller]
            pub fn new(kernel_size: [usize; N]) -> Self {
                let kernel_size = nonzero(concat!(stringify!($name), ": kernel_size"), kernel_size);
                Self {
                    kernel_size,
                    stride: kernel_size,
                    padding: [(0, 0); N],
                    dilation: [1; N],
                    ceil_mode: false,
                    $($field: $default,)*
                }
            }

            /// These options with another stride.
            ///
            /// # Panics
            ///
            /// When a stride is zero.
            #[track_caller]
            pub fn with_stride(mut self, stride: [usize; N]) -> Self {
                self.stride = nonzero(concat!(stringify!($name), ": stride"), stride);
                self
            }

            /// These options with the same padding on both sides of each dimension.
            pub fn with_padding(mut self, padding: [usize; N]) -> Self {
                self.padding = padding.map(|p| (p, p));
                self
            }

            /// These options with a `(begin, end)` padding pair per dimension.
            pub fn with_padding_pairs(mut self, padding: [(usize, usize); N]) -> Self {
                self.padding = padding;
                self
            }

            /// These options with another dilation.
            ///
            /// # Panics
            ///
            /// When a dilation is zero.
            #[track_caller]
            pub fn with_dilation(mut self, dilation: [usize; N]) -> Self {
                self.dilation = nonzero(concat!(stringify!($name), ": dilation"), dilation);
                self
            }

            /// These options rounding the output size up (`true`) or down.
            pub fn with_ceil_mode(mut self, ceil_mode: bool) -> Self {
                self.ceil_mode = ceil_mode;
                self
            }

            $(
                #[doc = concat!("These options with another `", stringify!($field), "`.")]
                pub fn $builder(mut self, $field: $ty) -> Self {
                    self.$field = $field;
                    self
                }
            )*

            /// Whether some dimension pads its two sides differently.
            pub fn is_asymmetric(&self) -> bool {
                self.padding.iter().any(|(begin, end)| begin != end)
            }
        }
    };
}

pool_options! {
    /// Options of max pooling (`max_pool1d`, `max_pool2d` and their `_with_indices`). Padding
    /// counts as negative infinity.
    MaxPoolOptions {}
}

pool_options! {
    /// Options of average pooling (`avg_pool1d`, `avg_pool2d`). Padding counts as zeros.
    AvgPoolOptions {
        /// Whether the padded positions count in a window's divisor (PyTorch's default, `true`).
        count_include_pad: bool = true, with_count_include_pad;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_pytorch() {
        let options = AvgPoolOptions::new([2, 3]);
        assert_eq!(options.stride, [2, 3]);
        assert_eq!(options.padding, [(0, 0); 2]);
        assert!(options.count_include_pad && !options.ceil_mode);
        let options = MaxPoolOptions::new([3])
            .with_padding_pairs([(0, 1)])
            .with_ceil_mode(true);
        assert!(options.is_asymmetric() && options.ceil_mode);
    }

    #[test]
    #[should_panic(expected = "MaxPoolOptions: kernel_size must be non-zero, got [0]")]
    fn zero_kernel_is_refused() {
        MaxPoolOptions::new([0]);
    }
}
