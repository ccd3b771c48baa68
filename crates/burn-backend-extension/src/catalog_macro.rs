//! `backend_catalog!`: the catalog handed to a `macro_rules!` callback (burn-dispatch's
//! `define_dispatch!`), with optional extra entries for tests.

use crate::catalog::{CATALOG, CatalogEntry};
use proc_macro2::{Punct, Spacing, TokenStream as TokenStream2};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, LitStr, Path, Token, bracketed};

/// One entry: `[Variant, path::to::Backend, "feature"]`.
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

fn entry_tokens(entry: &CatalogEntry) -> syn::Result<EntryTokens> {
    Ok(EntryTokens {
        variant: Ident::new(entry.variant, proc_macro2::Span::call_site()),
        backend: syn::parse_str(entry.backend)?,
        feature: LitStr::new(entry.feature, proc_macro2::Span::call_site()),
    })
}

/// The tokens handed to the callback for one entry at `index`:
/// `[Variant, Backend, "feature", constructor, index]`, where the constructor is the variant
/// name in snake case (`Flex` → `flex`).
fn callback_tokens(entry: &EntryTokens, index: usize) -> TokenStream2 {
    let (variant, backend, feature) = (&entry.variant, &entry.backend, &entry.feature);
    let constructor = Ident::new(&snake_case(&variant.to_string()), variant.span());
    let index = proc_macro2::Literal::u16_unsuffixed(index as u16);
    quote!([#variant, #backend, #feature, #constructor, #index])
}

pub(crate) fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// Expands `backend_catalog!` (see the macro's documentation in `lib.rs`).
pub(crate) fn expand(input: TokenStream2) -> TokenStream2 {
    let call: CatalogCall = match syn::parse2(input) {
        Ok(call) => call,
        Err(error) => return error.to_compile_error(),
    };
    let mut listed = Vec::new();
    for entry in CATALOG {
        match entry_tokens(entry) {
            Ok(tokens) => listed.push(tokens),
            Err(error) => return error.to_compile_error(),
        }
    }
    listed.extend(call.extra);
    let entries: Vec<TokenStream2> = listed
        .iter()
        .enumerate()
        .map(|(index, entry)| callback_tokens(entry, index))
        .collect();
    let callback = &call.callback;
    let dollar = Punct::new('$', Spacing::Alone);
    quote!(#callback! { #dollar #(#entries)* })
}
