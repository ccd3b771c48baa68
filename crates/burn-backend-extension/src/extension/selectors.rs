//! The selectors of `#[backend_extension(..)]`: catalog entries and `Autodiff`, each with an
//! optional `: cfg(predicate)` gate, checked against the catalog.

use crate::catalog::CatalogEntry;
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, Token, parenthesized};

/// The name of the autodiff selector (not a catalog entry: a decorator of every entry).
pub(crate) const AUTODIFF: &str = "Autodiff";

/// One selector as written.
struct Written {
    name: Ident,
    gate: Option<TokenStream2>,
}

impl Parse for Written {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name: Ident = input.parse()?;
        let gate = if input.parse::<Option<Token![:]>>()?.is_some() {
            let cfg: Ident = input.parse()?;
            if cfg != "cfg" {
                return Err(syn::Error::new(
                    cfg.span(),
                    format!("expected `{name}: cfg(predicate)`, got `{name}: {cfg}`"),
                ));
            }
            let content;
            parenthesized!(content in input);
            Some(content.parse::<TokenStream2>()?)
        } else {
            None
        };
        Ok(Self { name, gate })
    }
}

/// A selected catalog entry.
pub(crate) struct Entry {
    /// The entry's variant name (`Flex`).
    pub(crate) variant: &'static str,
    /// The `cfg` predicate gating it in the user's crate.
    pub(crate) gate: Option<TokenStream2>,
}

/// The validated selectors, entries in catalog order.
pub(crate) struct Selectors {
    pub(crate) entries: Vec<Entry>,
    /// `Some(gate)` when `Autodiff` is selected.
    pub(crate) autodiff: Option<Option<TokenStream2>>,
}

impl Entry {
    /// `#[cfg(gate)]` or nothing.
    pub(crate) fn cfg(&self) -> TokenStream2 {
        cfg_attr(&self.gate)
    }

    /// `cfg!(gate)` or `true`: whether the selector is compiled, for run-time messages.
    pub(crate) fn enabled(&self) -> TokenStream2 {
        match &self.gate {
            Some(gate) => quote!(cfg!(#gate)),
            None => quote!(true),
        }
    }
}

/// `#[cfg(gate)]` or nothing.
pub(crate) fn cfg_attr(gate: &Option<TokenStream2>) -> TokenStream2 {
    match gate {
        Some(gate) => quote!(#[cfg(#gate)]),
        None => quote!(),
    }
}

fn valid_list(catalog: &[CatalogEntry]) -> String {
    let names: Vec<String> = catalog.iter().map(|e| format!("`{}`", e.variant)).collect();
    format!(
        "the selectors are {} (the backends of the catalog) and `{AUTODIFF}`",
        names.join(", ")
    )
}

/// Parses and checks the attribute's arguments.
pub(crate) fn parse(attr: TokenStream2, catalog: &[CatalogEntry]) -> syn::Result<Selectors> {
    let written =
        syn::parse::Parser::parse2(Punctuated::<Written, Token![,]>::parse_terminated, attr)?;
    if written.is_empty() {
        return Err(syn::Error::new(
            Span::call_site(),
            format!(
                "#[backend_extension(..)] needs the backends it supports: {}",
                valid_list(catalog)
            ),
        ));
    }
    let mut gates: Vec<Option<Option<TokenStream2>>> = vec![None; catalog.len()];
    let mut autodiff = None;
    for selector in written {
        let name = selector.name.to_string();
        let slot = if name == AUTODIFF {
            &mut autodiff
        } else if let Some(i) = catalog.iter().position(|e| e.variant == name) {
            &mut gates[i]
        } else if let Some(entry) = catalog.iter().find(|e| e.aliases.contains(&name.as_str())) {
            return Err(syn::Error::new(
                selector.name.span(),
                format!(
                    "`{name}` is not a selector: it is an alias of the `{}` backend (one type \
                     for every runtime; the device picks the runtime), so select `{}`; {}",
                    entry.variant,
                    entry.variant,
                    valid_list(catalog)
                ),
            ));
        } else {
            return Err(syn::Error::new(
                selector.name.span(),
                format!("unknown backend selector `{name}`: {}", valid_list(catalog)),
            ));
        };
        if slot.is_some() {
            return Err(syn::Error::new(
                selector.name.span(),
                format!("`{name}` is selected twice"),
            ));
        }
        *slot = Some(selector.gate);
    }
    let entries: Vec<Entry> = catalog
        .iter()
        .zip(gates)
        .filter_map(|(e, gate)| {
            gate.map(|gate| Entry {
                variant: e.variant,
                gate,
            })
        })
        .collect();
    if entries.is_empty() {
        return Err(syn::Error::new(
            Span::call_site(),
            format!(
                "`{AUTODIFF}` differentiates the operations of a backend: select at least one \
                 backend too; {}",
                valid_list(catalog)
            ),
        ));
    }
    Ok(Selectors { entries, autodiff })
}
