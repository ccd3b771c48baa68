//! One routed method of `impl Trait for Dispatch`.
//!
//! ```text
//! fn op(__arg0: .., __arg1: ..) -> .. {
//!     let __ext_route = /* visit the tensor arguments: backend, strategy, tracked */;
//!     // for each selected entry, in catalog order (behind its cfg gate):
//!     __burn_ext_route_flex!(route __ext_route, __E, __B => {
//!         __burn_ext_autodiff!(..  => { /* Autodiff<B, C>::op, returns */ });  // if selected
//!         /* B::op on the unwrapped arguments, outputs wrapped, returns */
//!     });
//!     unsupported(__ext_route, listed)   // panics naming the op and the backend
//! }
//! ```

use super::selectors::{Selectors, cfg_attr};
use super::signature::Signature;
use crate::kinds::{Kind, convert, runtime, visit};
use crate::routes::route_macro;
use proc_macro2::{Ident, Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};

/// The routed method for `sig`, an operation of trait `trait_name`.
pub(crate) fn generate(
    trait_name: &Ident,
    sig: &Signature,
    selectors: &Selectors,
) -> syn::Result<TokenStream2> {
    let rt = runtime();
    let name = sig.name();
    let op = format!("{trait_name}::{name}");
    let args: Vec<Ident> = (0..sig.args.len())
        .map(|i| format_ident!("__arg{i}"))
        .collect();
    let types = sig.args.iter().map(|(ty, _)| ty);
    let generics = &sig.sig.generics;
    let where_clause = &sig.sig.generics.where_clause;
    let output = &sig.sig.output;
    let header = quote! {
        #[allow(unreachable_code, unused_variables, non_camel_case_types)]
        fn #name #generics (#(#args: #types),*) #output #where_clause
    };
    let dispatch = quote!(::burn::backend::__dispatch);

    if !sig.has_tensor_input() {
        let [entry] = selectors.entries.as_slice() else {
            let names: Vec<String> = selectors
                .entries
                .iter()
                .map(|e| format!("`{}`", e.variant))
                .collect();
            return Err(syn::Error::new_spanned(
                &sig.sig,
                format!(
                    "`{op}` has no tensor argument, so nothing picks its backend at run time, \
                     and several backends are selected ({}): give it a tensor argument, or put \
                     it in a trait of its own with a single backend",
                    names.join(", ")
                ),
            ));
        };
        let route = route_macro(entry.variant);
        let gate = entry.cfg();
        let body = call_backend(
            trait_name,
            sig,
            &args,
            quote!(#rt::FromBackend::<__E>::untracked()),
        );
        let variant = entry.variant;
        return Ok(quote! {
            #header {
                #gate
                #dispatch::#route!(static, __E, __B => { #body });
                #rt::not_compiled(#op, #variant)
            }
        });
    }

    let visit_id = Ident::new("__visit", Span::call_site());
    let visits = sig
        .args
        .iter()
        .zip(&args)
        .map(|((_, kind), arg)| visit(kind, quote!(&#arg), &visit_id, 0));
    let autodiff = selectors.autodiff.as_ref().map(|gate| {
        let gate = cfg_attr(gate);
        let body = call_autodiff(trait_name, sig, &args);
        quote! {
            #gate
            #dispatch::__burn_ext_autodiff!(__ext_route, __E, __B, __S, __A => { #body });
        }
    });
    let plain = call_backend(
        trait_name,
        sig,
        &args,
        quote!(#rt::FromBackend::<__E>::new(__ext_route)),
    );
    let routes = selectors.entries.iter().map(|entry| {
        let route = route_macro(entry.variant);
        let gate = entry.cfg();
        quote! {
            #gate
            #dispatch::#route!(route __ext_route, __E, __B => {
                #autodiff
                __ext_route.expect_untracked();
                #plain
            });
        }
    });
    let listed = selectors.entries.iter().map(|entry| {
        let variant = entry.variant;
        let enabled = entry.enabled();
        quote!((#variant, #enabled))
    });
    let autodiff_listed = match &selectors.autodiff {
        Some(Some(gate)) => quote!(cfg!(#gate)),
        Some(None) => quote!(true),
        None => quote!(false),
    };
    Ok(quote! {
        #header {
            let __ext_route: #rt::RouteKey = {
                let #visit_id = &mut #rt::Route::new(#op, #autodiff_listed);
                #(#visits)*
                #visit_id.finish()
            };
            #(#routes)*
            #rt::unsupported(__ext_route, &[#(#listed),*])
        }
    })
}

/// Converts the arguments with `map`, calls `<backend as Trait>::op`, converts the result
/// with `out_map`, and returns it.
fn call(
    trait_name: &Ident,
    sig: &Signature,
    args: &[Ident],
    backend: TokenStream2,
    map: TokenStream2,
    out_map: TokenStream2,
) -> TokenStream2 {
    let name = sig.name();
    let map_id = Ident::new("__in", Span::call_site());
    let out_id = Ident::new("__out_map", Span::call_site());
    let converted = sig.args.iter().zip(args).map(|((_, kind), arg)| {
        let value = convert(kind, quote!(#arg), &map_id, 0);
        quote!(let #arg = #value;)
    });
    let result = convert(&sig.output, quote!(__out), &out_id, 0);
    let uses_out_map = sig.output.has_tensor();
    let out_binding = if uses_out_map {
        quote!(let #out_id = &mut #out_map;)
    } else {
        quote!()
    };
    let uses_map = sig.args.iter().any(|(_, k)| *k != Kind::Plain);
    let map_binding = if uses_map {
        quote!(let #map_id = &mut #map;)
    } else {
        quote!()
    };
    quote! {
        #map_binding
        #(#converted)*
        let __out = <#backend as #trait_name>::#name(#(#args),*);
        #out_binding
        return #result;
    }
}

fn call_backend(
    trait_name: &Ident,
    sig: &Signature,
    args: &[Ident],
    out_map: TokenStream2,
) -> TokenStream2 {
    let rt = runtime();
    call(
        trait_name,
        sig,
        args,
        quote!(__B),
        quote!(#rt::ToBackend::<__E>::new()),
        out_map,
    )
}

fn call_autodiff(trait_name: &Ident, sig: &Signature, args: &[Ident]) -> TokenStream2 {
    let rt = runtime();
    call(
        trait_name,
        sig,
        args,
        quote!(__A),
        quote!(#rt::ToAutodiff::<__E, __S>::new()),
        quote!(#rt::FromAutodiff::<__E, __S>::new(__ext_route)),
    )
}
