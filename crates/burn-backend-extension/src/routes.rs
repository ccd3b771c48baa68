//! `extension_routes!`: one exported routing macro per catalog entry, defined in
//! `burn-dispatch` under that crate's feature for the entry.

use crate::catalog::CatalogEntry;
use crate::catalog_macro::snake_case;
use proc_macro2::{Ident, Span, TokenStream as TokenStream2};
use quote::quote;

/// The name of the routing macro of `entry` (`__burn_ext_route_flex`).
pub(crate) fn route_macro(variant: &str) -> Ident {
    Ident::new(
        &format!("__burn_ext_route_{}", snake_case(variant)),
        Span::call_site(),
    )
}

/// The routing macros of every entry of `catalog`. The input must be empty.
///
/// Each macro has two forms:
/// - `(route key, E, B => { body })`: runs `body` (which returns) with `E` the entry's marker
///   and `B` its backend when `key.backend` names this entry;
/// - `(static, E, B => { body })`: runs `body` unconditionally (an operation without tensor
///   inputs and a single backend).
///
/// When the entry's feature is off in `burn-dispatch`, both forms expand to nothing, so the
/// code after them (a panic naming the backend) runs.
pub(crate) fn expand(input: TokenStream2, catalog: &[CatalogEntry]) -> TokenStream2 {
    if !input.is_empty() {
        return syn::Error::new_spanned(input, "extension_routes!() takes no input")
            .to_compile_error();
    }
    let mut out = TokenStream2::new();
    for entry in catalog {
        let name = route_macro(entry.variant);
        let variant = Ident::new(entry.variant, Span::call_site());
        let feature = entry.feature;
        let doc = format!(
            "Routes a backend-extension call to the `{}` entry (generated from the catalog).",
            entry.variant
        );
        out.extend(quote! {
            #[cfg(feature = #feature)]
            #[doc = #doc]
            #[doc(hidden)]
            #[macro_export]
            macro_rules! #name {
                (route $key:ident, $E:ident, $B:ident => $body:block) => {
                    if $key.backend() == <$crate::entries::#variant as $crate::BackendEntry>::NAME {
                        #[allow(dead_code)]
                        type $E = $crate::entries::#variant;
                        #[allow(dead_code)]
                        type $B = <$crate::entries::#variant as $crate::BackendEntry>::Backend;
                        $body
                    }
                };
                (static, $E:ident, $B:ident => $body:block) => {{
                    #[allow(dead_code)]
                    type $E = $crate::entries::#variant;
                    #[allow(dead_code)]
                    type $B = <$crate::entries::#variant as $crate::BackendEntry>::Backend;
                    $body
                }};
            }

            #[cfg(not(feature = #feature))]
            #[doc = #doc]
            #[doc(hidden)]
            #[macro_export]
            macro_rules! #name {
                ($($tokens:tt)*) => {};
            }
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{CATALOG, extended_catalog};

    #[test]
    fn every_entry_gets_a_route_under_its_feature() {
        let out = expand(TokenStream2::new(), &extended_catalog()).to_string();
        for (name, feature) in [
            ("__burn_ext_route_flex", "\"flex\""),
            ("__burn_ext_route_cube", "\"cube\""),
            ("__burn_ext_route_capture", "\"capture\""),
        ] {
            assert_eq!(out.matches(name).count(), 2, "{name} in {out}");
            assert!(out.contains(&format!("feature = {feature}")), "{feature}");
        }
    }

    #[test]
    fn input_is_rejected() {
        let out = expand(quote!(Flex), CATALOG).to_string();
        assert!(out.contains("takes no input"), "{out}");
    }
}
