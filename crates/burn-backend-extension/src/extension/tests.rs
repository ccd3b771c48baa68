//! The generated routing follows the catalog: an entry added there is routed (and selectable)
//! with no other list to edit. Compile errors as users see them are pinned by the trybuild
//! tests (`tests/ui`).

use super::expand;
use crate::catalog::{CATALOG, extended_catalog};
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;

fn ops() -> TokenStream2 {
    quote! {
        pub trait MyOps: Backend {
            fn op(x: FloatTensor<Self>, n: usize) -> FloatTensor<Self>;
        }
    }
}

#[test]
fn a_new_catalog_entry_is_a_selector_and_is_routed() {
    let out = expand(quote!(Flex, Capture, Autodiff), ops(), &extended_catalog()).to_string();
    assert!(!out.contains("compile_error"), "{out}");
    assert!(out.contains("__burn_ext_route_capture"), "{out}");
    assert!(out.contains("__burn_ext_route_flex"), "{out}");
    assert!(!out.contains("__burn_ext_route_cube"), "{out}");
    assert!(out.contains("__burn_ext_autodiff"), "{out}");
}

#[test]
fn the_same_selector_is_unknown_without_the_entry() {
    let out = expand(quote!(Flex, Capture), ops(), CATALOG).to_string();
    assert!(out.contains("unknown backend selector `Capture`"), "{out}");
}

#[test]
fn selectors_follow_catalog_order_and_keep_their_gates() {
    let out = expand(quote!(Cube: cfg(feature = "gpu"), Flex), ops(), CATALOG).to_string();
    let flex = out.find("__burn_ext_route_flex").unwrap();
    let cube = out.find("__burn_ext_route_cube").unwrap();
    assert!(flex < cube, "catalog order: {out}");
    assert!(out.contains("cfg (feature = \"gpu\")"), "{out}");
}
