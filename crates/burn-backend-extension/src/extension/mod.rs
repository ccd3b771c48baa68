//! `#[backend_extension(..)]`: the trait as written (less the `#[extension_type]` markers) and
//! `impl Trait for Dispatch`, whose methods route through the catalog's routing macros.

mod method;
mod selectors;
mod signature;

use crate::catalog::CatalogEntry;
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;
use syn::{ItemTrait, TraitItem};

/// Expands the attribute on `item` with the selectors `attr`, against `catalog`.
pub(crate) fn expand(
    attr: TokenStream2,
    item: TokenStream2,
    catalog: &[CatalogEntry],
) -> TokenStream2 {
    let mut item: ItemTrait = match syn::parse2(item) {
        Ok(item) => item,
        Err(_) => {
            return syn::Error::new(
                proc_macro2::Span::call_site(),
                "#[backend_extension] goes on a trait of operations: \
                 `pub trait MyOps: Backend { fn op(x: FloatTensor<Self>) -> FloatTensor<Self>; }`",
            )
            .to_compile_error();
        }
    };
    match generate(attr, &mut item, catalog) {
        // The trait is emitted even on error, so only the error is reported (not every use
        // of a missing trait).
        Ok(routing) => quote!(#item #routing),
        Err(error) => {
            let error = error.to_compile_error();
            quote!(#item #error)
        }
    }
}

fn generate(
    attr: TokenStream2,
    item: &mut ItemTrait,
    catalog: &[CatalogEntry],
) -> syn::Result<TokenStream2> {
    let selectors = selectors::parse(attr, catalog)?;
    if !item.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &item.generics,
            "a backend extension trait takes no generic parameters (its backend is `Self`)",
        ));
    }
    let mut methods = Vec::new();
    let mut errors: Option<syn::Error> = None;
    for trait_item in &mut item.items {
        let result = match trait_item {
            TraitItem::Fn(function) => signature::Signature::read(function)
                .and_then(|sig| method::generate(&item.ident, &sig, &selectors)),
            other => Err(syn::Error::new_spanned(
                other,
                "a backend extension trait holds only operations (associated functions)",
            )),
        };
        match result {
            Ok(tokens) => methods.push(tokens),
            Err(error) => match &mut errors {
                Some(errors) => errors.combine(error),
                None => errors = Some(error),
            },
        }
    }
    if let Some(errors) = errors {
        return Err(errors);
    }
    let name = &item.ident;
    Ok(quote! {
        impl #name for ::burn::backend::Dispatch {
            #(#methods)*
        }
    })
}

#[cfg(test)]
mod tests;
