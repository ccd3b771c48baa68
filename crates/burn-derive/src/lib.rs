//! `#[derive(Module)]` and `#[derive(Config)]`. The generated code names `burn::…` paths:
//! crates using the derives depend on `burn` (or alias `burn-core` as `burn`).

mod config;
mod module;

use proc_macro::TokenStream;

/// Implements `burn::module::Module` for a struct whose fields are modules (layers,
/// `Param`s, `Option`/`Vec`/arrays of modules, or constants such as `usize`), or for an enum
/// whose variants hold one module each. Field and variant names become the parameter paths.
#[proc_macro_derive(Module, attributes(module))]
pub fn derive_module(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    module::expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Implements `burn::config::Config` (JSON save/load), `Clone`, serde's traits, and for
/// structs `new(required fields)` plus a `with_<field>` builder per field with a
/// `#[config(default = …)]` or of an `Option` type.
#[proc_macro_derive(Config, attributes(config))]
pub fn derive_config(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    config::expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
