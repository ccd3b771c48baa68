//! The catalog of executing backends and the macros generated from it.
//!
//! See `catalog.rs` for the list and the README for who expands it:
//!
//! - [`backend_catalog!`] hands the catalog to `burn-dispatch`'s `define_dispatch!` (its enums
//!   and routing);
//! - [`extension_routes!`] defines, in `burn-dispatch`, one routing macro per entry, each chosen
//!   by `burn-dispatch`'s own features;
//! - [`macro@backend_extension`] writes `impl Trait for Dispatch` for a trait of user operations,
//!   calling those routing macros for every entry;
//! - [`macro@ExtensionType`] derives the conversions of a struct or enum of tensors.

#![warn(missing_docs)]

mod catalog;
mod catalog_macro;
mod derive;
mod extension;
mod kinds;
mod routes;

use proc_macro::TokenStream;

/// Calls `callback! { $ [Variant, Backend, "feature", constructor, index] ... }` with every
/// catalog entry, then any extra entries given after the callback
/// (`backend_catalog!(cb, [Stub, my::Stub, "flex"])`, used by tests). `index` is the entry's
/// position; `constructor` its variant name in snake case.
///
/// The leading `$` lets the callback define `macro_rules!` routing macros of its own.
#[proc_macro]
pub fn backend_catalog(input: TokenStream) -> TokenStream {
    catalog_macro::expand(input.into()).into()
}

/// Defines, in the calling crate (`burn-dispatch`), the routing macro of each catalog entry
/// that `#[backend_extension]` calls: `__burn_ext_route_<entry>!`, exported, in two versions
/// chosen by the calling crate's feature for that entry (the route when the backend is
/// compiled, nothing when it is not). So the features are resolved where they are declared,
/// never in the crate that uses the extension.
#[proc_macro]
pub fn extension_routes(input: TokenStream) -> TokenStream {
    routes::expand(input.into(), catalog::CATALOG).into()
}

/// Generates `impl Trait for Dispatch` for a trait of new primitive operations.
///
/// ```ignore
/// #[backend_extension(Cube, Flex, Autodiff)]
/// pub trait FusedOps: Backend {
///     fn linear_relu(x: FloatTensor<Self>, w: FloatTensor<Self>, b: FloatTensor<Self>)
///         -> FloatTensor<Self>;
/// }
/// ```
///
/// Each method of the generated impl finds the backend of a representative input (the first
/// float tensor, else the first tensor of another kind), converts every input to that
/// backend's primitive, calls `<ThatBackend as Trait>::method`, and wraps the outputs back.
/// Selectors: the catalog's entries (`Flex`, `Cube`) and `Autodiff` (tracked inputs go to
/// `<Autodiff<B, C> as Trait>::method`). `Name: cfg(predicate)` compiles a selector's routing
/// only when the predicate holds in the crate of the trait. Backends not selected panic at run
/// time naming the operation and the backend.
///
/// Arguments and results: `FloatTensor<Self>`, `IntTensor<Self>`, `BoolTensor<Self>`,
/// `QuantizedTensor<Self>`, tuples of them, values without `Self` (passed through), and types
/// deriving `ExtensionType` (arguments marked `#[extension_type]`).
#[proc_macro_attribute]
pub fn backend_extension(attr: TokenStream, item: TokenStream) -> TokenStream {
    extension::expand(attr.into(), item.into(), catalog::CATALOG).into()
}

/// Derives `ExtensionType<B>` for a struct or enum generic over one backend `B`: its
/// `FloatTensor<B>`, `IntTensor<B>`, `BoolTensor<B>`, `QuantizedTensor<B>` fields (also inside
/// `Option` or `Vec`, and fields marked `#[extension_type]` that derive it too) are converted
/// between backends; other fields are moved as they are.
#[proc_macro_derive(ExtensionType, attributes(extension_type))]
pub fn derive_extension_type(item: TokenStream) -> TokenStream {
    derive::expand(item.into()).into()
}
