//! `Module` for what a module carries besides parameters: constants (numbers, strings),
//! `Ignored` values, and containers of modules (`Option`, `Vec`, arrays, `Box`).

use super::base::{Module, ModuleMapper, ModuleVisitor};
use super::display::{Content, ModuleDisplay, ModuleDisplayDefault};

/// Makes a plain value a constant of the module tree: visited and mapped as nothing, saved
/// nowhere, shown with its `Display`. `empty!(MyType)` writes the `Module`,
/// `ModuleDisplayDefault` and `ModuleDisplay` impls; `empty!(module)` inside
/// `impl Module for MyType { … }` writes just the methods.
///
/// ```
/// use burn_core as burn;
/// use burn::module::Module;
///
/// #[derive(Clone, Debug)]
/// struct Mode(u8);
///
/// impl core::fmt::Display for Mode {
///     fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
///         write!(f, "mode {}", self.0)
///     }
/// }
///
/// burn::empty!(Mode);
/// assert_eq!(Mode(2).num_params(), 0);
/// ```
#[macro_export]
macro_rules! empty {
    (module) => {
        fn visit<V: $crate::module::ModuleVisitor>(&self, _visitor: &mut V) {}

        fn map<M: $crate::module::ModuleMapper>(self, _mapper: &mut M) -> Self {
            self
        }
    };

    ($type:ty) => {
        impl $crate::module::Module for $type {
            $crate::empty!(module);
        }

        impl $crate::module::ModuleDisplayDefault for $type {
            fn content(&self, content: $crate::module::Content) -> Option<$crate::module::Content> {
                content.add_formatted(&self).optional()
            }
        }

        impl $crate::module::ModuleDisplay for $type {}
    };
}

macro_rules! constant_modules {
    ($($ty:ty),* $(,)?) => {$( $crate::empty!($ty); )*};
}

constant_modules!(
    bool,
    u8,
    u16,
    u32,
    u64,
    usize,
    i8,
    i16,
    i32,
    i64,
    isize,
    f32,
    f64,
    String,
    burn_tensor::f16,
    burn_tensor::bf16,
);

/// A field the module tree ignores (any `Clone + Debug + Send` value: a closure's config,
/// a flag). Derefs to the value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ignored<T>(pub T);

impl<T: Clone + core::fmt::Debug + Send> Module for Ignored<T> {
    fn visit<V: ModuleVisitor>(&self, _visitor: &mut V) {}
    fn map<M: ModuleMapper>(self, _mapper: &mut M) -> Self {
        self
    }
}

impl<T> core::ops::Deref for Ignored<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<M: Module> Module for Option<M> {
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
        if let Some(module) = self {
            module.visit(visitor);
        }
    }
    fn map<Mp: ModuleMapper>(self, mapper: &mut Mp) -> Self {
        self.map(|module| module.map(mapper))
    }
}

impl<M: Module> Module for Vec<M> {
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
        for (i, module) in self.iter().enumerate() {
            let name = i.to_string();
            visitor.enter_module(&name, "Vec");
            module.visit(visitor);
            visitor.exit_module(&name, "Vec");
        }
    }
    fn map<Mp: ModuleMapper>(self, mapper: &mut Mp) -> Self {
        self.into_iter()
            .enumerate()
            .map(|(i, module)| {
                let name = i.to_string();
                mapper.enter_module(&name, "Vec");
                let module = module.map(mapper);
                mapper.exit_module(&name, "Vec");
                module
            })
            .collect()
    }
}

impl<M: Module, const N: usize> Module for [M; N] {
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
        for (i, module) in self.iter().enumerate() {
            let name = i.to_string();
            visitor.enter_module(&name, "Array");
            module.visit(visitor);
            visitor.exit_module(&name, "Array");
        }
    }
    fn map<Mp: ModuleMapper>(self, mapper: &mut Mp) -> Self {
        let mut i = 0;
        self.map(|module| {
            let name = i.to_string();
            i += 1;
            mapper.enter_module(&name, "Array");
            let module = module.map(mapper);
            mapper.exit_module(&name, "Array");
            module
        })
    }
}

impl<M: Module> Module for Box<M> {
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
        (**self).visit(visitor);
    }
    fn map<Mp: ModuleMapper>(self, mapper: &mut Mp) -> Self {
        Box::new((*self).map(mapper))
    }
}

impl<T: Clone + core::fmt::Debug + Send> ModuleDisplayDefault for Ignored<T> {
    fn content(&self, content: Content) -> Option<Content> {
        content.add_formatted(&format!("{:?}", self.0)).optional()
    }
}

impl<T: Clone + core::fmt::Debug + Send> ModuleDisplay for Ignored<T> {}

impl<T: core::fmt::Debug> core::fmt::Display for Ignored<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

impl<T: ModuleDisplay> ModuleDisplayDefault for Option<T> {
    fn content(&self, content: Content) -> Option<Content> {
        match self {
            Some(module) => content.add_single(module).optional(),
            None => content.add_single("None").optional(),
        }
    }
}

impl<T: ModuleDisplay> ModuleDisplay for Option<T> {}

/// `ModuleDisplay` for sequences: each item under its index, the type shown as `top(len)`.
macro_rules! display_sequence {
    ($([$($generic:tt)*] $ty:ty => $top:literal;)*) => {$(
        impl<$($generic)*> ModuleDisplayDefault for $ty {
            fn content(&self, content: Content) -> Option<Content> {
                self.iter()
                    .enumerate()
                    .fold(content, |acc, (i, module)| acc.add(&i.to_string(), module))
                    .set_top_level_type(&format!($top, self.len()))
                    .optional()
            }
        }

        impl<$($generic)*> ModuleDisplay for $ty {}
    )*};
}

display_sequence! {
    [T: ModuleDisplay] Vec<T> => "Vec<0..{}>";
    [T: ModuleDisplay, const N: usize] [T; N] => "[0..{}]";
}

impl<T: ModuleDisplay + ?Sized> ModuleDisplayDefault for Box<T> {
    fn content(&self, content: Content) -> Option<Content> {
        (**self).content(content)
    }
    fn num_params(&self) -> usize {
        (**self).num_params()
    }
}

impl<T: ModuleDisplay + ?Sized> ModuleDisplay for Box<T> {
    fn format(&self, settings: super::display::DisplaySettings) -> String {
        (**self).format(settings)
    }
}
