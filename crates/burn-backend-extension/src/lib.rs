//! The catalog of executing backends and the macros generated from it.
//!
//! See `catalog.rs` for the list and the README for who expands it.

mod catalog;

use catalog::{CATALOG, CatalogEntry};
use proc_macro::TokenStream;
use proc_macro2::{Punct, Spacing, TokenStream as TokenStream2};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, LitStr, Path, Token, bracketed};

/// One entry as written in a macro call: `[Variant, path::to::Backend, "feature"]`.
struct EntryTokens {
    variant: Ident,
    backend: Path,
    feature: LitStr,
}

impl Parse for EntryTokens {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let content;
        bracketed!(content in input);
        let variant = content.parse()?;
        content.parse::<Token![,]>()?;
        let backend = content.parse()?;
        content.parse::<Token![,]>()?;
        let feature = content.parse()?;
        Ok(Self {
            variant,
            backend,
            feature,
        })
    }
}

/// `callback_path` followed by optional extra entries (used by tests to add a stub backend).
struct CatalogCall {
    callback: Path,
    extra: Vec<EntryTokens>,
}

impl Parse for CatalogCall {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let callback = input.parse()?;
        let mut extra = Vec::new();
        if input.parse::<Option<Token![,]>>()?.is_some() {
            let entries = Punctuated::<EntryTokens, Token![,]>::parse_terminated(input)?;
            extra.extend(entries);
        }
        Ok(Self { callback, extra })
    }
}

fn entry_tokens(entry: &CatalogEntry) -> syn::Result<TokenStream2> {
    let variant = Ident::new(entry.variant, proc_macro2::Span::call_site());
    let backend: Path = syn::parse_str(entry.backend)?;
    let feature = LitStr::new(entry.feature, proc_macro2::Span::call_site());
    Ok(quote!([#variant, #backend, #feature]))
}

/// Calls `callback! { $ [Variant, Backend, "feature"] ... }` with every catalog entry (and any
/// extra entries given after the callback: `backend_catalog!(cb, [Stub, my::Stub, "flex"])`).
///
/// The leading `$` lets the callback define `macro_rules!` routing macros of its own.
#[proc_macro]
pub fn backend_catalog(input: TokenStream) -> TokenStream {
    let call = syn::parse_macro_input!(input as CatalogCall);
    let mut entries = Vec::new();
    for entry in CATALOG {
        match entry_tokens(entry) {
            Ok(tokens) => entries.push(tokens),
            Err(error) => return error.to_compile_error().into(),
        }
    }
    for extra in &call.extra {
        let (variant, backend, feature) = (&extra.variant, &extra.backend, &extra.feature);
        entries.push(quote!([#variant, #backend, #feature]));
    }
    let callback = &call.callback;
    let dollar = Punct::new('$', Spacing::Alone);
    quote!(#callback! { #dollar #(#entries)* }).into()
}
