//! The macros that write the families of `Tensor` methods shared by the numeric and ordered
//! impls: comparisons, reductions along a dim, running scans.

/// Generates broadcasting comparisons and their scalar forms.
macro_rules! comparisons {
    ($($(#[$doc:meta])* $name:ident / $elem:ident / $alias:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(self, other: Self) -> Tensor<D, Bool> {
            self.compare(stringify!($name), other, K::$name)
        }
        $(#[$doc])*
        #[doc = "(with a scalar)"]
        pub fn $elem<V: Into<Scalar>>(self, other: V) -> Tensor<D, Bool> {
            Tensor::from_primitive(K::$elem(self.into_primitive(), other.into()))
        }
        $(#[$doc])*
        #[doc = "(with a scalar; the same as the `_elem` form)"]
        pub fn $alias<V: Into<Scalar>>(self, other: V) -> Tensor<D, Bool> {
            self.$elem(other)
        }
    )*};
}

/// Generates reductions along a dim (kept with size 1) and over everything (shape `[1]`).
macro_rules! reductions {
    ($($(#[$doc:meta])* $all:ident / $dim:ident / $dims:ident;)*) => {$(
        $(#[$doc])*
        #[doc = "over all elements, shape `[1]`."]
        pub fn $all(self) -> Tensor<1, K> {
            check::reducible(stringify!($all), &self.shape(), None);
            Tensor::from_primitive(K::$all(self.into_primitive()))
        }
        $(#[$doc])*
        #[doc = "along `dim`, kept with size 1."]
        pub fn $dim<I: AsIndex>(self, dim: I) -> Self {
            let dim = check::dim(stringify!($dim), dim, D);
            check::reducible(stringify!($dim), &self.shape(), Some(dim));
            Self::from_primitive(K::$dim(self.into_primitive(), dim))
        }
        $(#[$doc])*
        #[doc = "along each of `dims`, each kept with size 1."]
        pub fn $dims<I: AsIndex>(self, dims: &[I]) -> Self {
            dims.iter().fold(self, |t, &dim| t.$dim(dim))
        }
    )*};
}

/// Generates running (cumulative) ops along a dim.
macro_rules! scans {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name<I: AsIndex>(self, dim: I) -> Self {
            let dim = check::dim(stringify!($name), dim, D);
            Self::from_primitive(K::$name(self.into_primitive(), dim))
        }
    )*};
}
