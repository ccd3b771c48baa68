//! `#[derive(ExtensionType)]`: `map` (convert every tensor between backends, moving the other
//! fields) and `visit` (show every tensor to the router) for a struct or enum generic over one
//! backend.

use crate::kinds::{Kind, convert, mentions, runtime, tensor_alias, wrapper_arg};
use proc_macro2::{Ident, Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, GenericParam, Type};

/// Expands the derive on `item`.
pub(crate) fn expand(item: TokenStream2) -> TokenStream2 {
    match syn::parse2::<DeriveInput>(item).and_then(|input| generate(&input)) {
        Ok(tokens) => tokens,
        Err(error) => error.to_compile_error(),
    }
}

/// The backend parameter: the one type parameter, and no lifetime or const parameter.
fn backend_param(input: &DeriveInput) -> syn::Result<Ident> {
    let mut types = Vec::new();
    for param in &input.generics.params {
        match param {
            GenericParam::Type(t) => types.push(t.ident.clone()),
            other => {
                return Err(syn::Error::new_spanned(
                    other,
                    "ExtensionType: only the backend type parameter is supported",
                ));
            }
        }
    }
    match types.as_slice() {
        [param] => Ok(param.clone()),
        _ => Err(syn::Error::new_spanned(
            &input.generics,
            "ExtensionType: expected exactly one type parameter, the backend \
             (`struct Args<B: Backend> { x: FloatTensor<B>, .. }`)",
        )),
    }
}

/// The kind of a field of type `ty`.
fn field_kind(ty: &Type, extension: bool, param: &str) -> syn::Result<Kind> {
    if extension {
        return Ok(Kind::Extension);
    }
    if let Some(method) = tensor_alias(ty, param)? {
        return Ok(Kind::Tensor(method));
    }
    for (wrapper, make) in [
        ("Option", Kind::Option as fn(Box<Kind>) -> Kind),
        ("Vec", Kind::Vec),
    ] {
        if let Some(inner) = wrapper_arg(ty, wrapper) {
            let kind = field_kind(inner, false, param)?;
            if kind != Kind::Plain {
                return Ok(make(Box::new(kind)));
            }
        }
    }
    if let Type::Tuple(tuple) = ty {
        let kinds = tuple
            .elems
            .iter()
            .map(|t| field_kind(t, false, param))
            .collect::<syn::Result<Vec<_>>>()?;
        if kinds.iter().any(Kind::has_tensor) {
            return Ok(Kind::Tuple(kinds));
        }
    }
    if mentions(ty, param) {
        return Err(syn::Error::new_spanned(
            ty,
            format!(
                "ExtensionType: a field mentioning `{param}` must be `FloatTensor<{param}>`, \
                 `IntTensor<{param}>`, `BoolTensor<{param}>`, `QuantizedTensor<{param}>`, an \
                 `Option`, `Vec` or tuple of them, or a type deriving `ExtensionType` marked \
                 `#[extension_type]`"
            ),
        ));
    }
    Ok(Kind::Plain)
}

/// The pattern binding every field of `fields`, the names bound, and their kinds.
fn bind(fields: &Fields, param: &str) -> syn::Result<(TokenStream2, Vec<Ident>, Vec<Kind>)> {
    let mut names = Vec::new();
    let mut kinds = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        let extension = field
            .attrs
            .iter()
            .any(|a| a.path().is_ident("extension_type"));
        kinds.push(field_kind(&field.ty, extension, param)?);
        names.push(format_ident!("__field{i}"));
    }
    let pattern = match fields {
        Fields::Named(named) => {
            let labels = named.named.iter().map(|f| &f.ident);
            quote!({ #(#labels: #names),* })
        }
        Fields::Unnamed(_) => quote!(( #(#names),* )),
        Fields::Unit => quote!(),
    };
    Ok((pattern, names, kinds))
}

/// `path { label: value, .. }` / `path(value, ..)` / `path` with the converted fields.
fn rebuild(path: TokenStream2, fields: &Fields, values: Vec<TokenStream2>) -> TokenStream2 {
    match fields {
        Fields::Named(named) => {
            let labels = named.named.iter().map(|f| &f.ident);
            quote!(#path { #(#labels: #values),* })
        }
        Fields::Unnamed(_) => quote!(#path( #(#values),* )),
        Fields::Unit => path,
    }
}

fn generate(input: &DeriveInput) -> syn::Result<TokenStream2> {
    let param = backend_param(input)?;
    let param_name = param.to_string();
    let name = &input.ident;
    let rt = runtime();
    let target = Ident::new("__Target", Span::call_site());
    let map_id = Ident::new("__map", Span::call_site());
    let visit_id = Ident::new("__visit", Span::call_site());

    // (pattern path, rebuild path, fields) for the struct or each variant.
    let shapes: Vec<(TokenStream2, TokenStream2, &Fields)> = match &input.data {
        Data::Struct(data) => vec![(quote!(#name), quote!(#name), &data.fields)],
        Data::Enum(data) => data
            .variants
            .iter()
            .map(|v| {
                let variant = &v.ident;
                (quote!(#name::#variant), quote!(#name::#variant), &v.fields)
            })
            .collect(),
        Data::Union(_) => {
            return Err(syn::Error::new_spanned(
                input,
                "ExtensionType: unions are not supported",
            ));
        }
    };
    let mut map_arms = Vec::new();
    let mut visit_arms = Vec::new();
    for (pattern_path, build_path, fields) in shapes {
        let (pattern, names, kinds) = bind(fields, &param_name)?;
        let values = names
            .iter()
            .zip(&kinds)
            .map(|(n, k)| convert(k, quote!(#n), &map_id, 0))
            .collect();
        let built = rebuild(build_path, fields, values);
        map_arms.push(quote!(#pattern_path #pattern => #built,));
        let visits = names
            .iter()
            .zip(&kinds)
            .map(|(n, k)| crate::kinds::visit(k, quote!(#n), &visit_id, 0));
        visit_arms.push(quote!(#pattern_path #pattern => { #(#visits)* }));
    }
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        #[allow(unused_variables, clippy::unused_unit)]
        impl #impl_generics #rt::ExtensionType<#param> for #name #ty_generics #where_clause {
            type Mapped<#target: ::burn::backend::Backend> = #name<#target>;

            fn map<#target: ::burn::backend::Backend>(
                self,
                #map_id: &mut impl #rt::TensorMap<#param, #target>,
            ) -> #name<#target> {
                match self { #(#map_arms)* }
            }

            fn visit(&self, #visit_id: &mut impl #rt::TensorVisit<#param>) {
                match self { #(#visit_arms)* }
            }
        }
    })
}
