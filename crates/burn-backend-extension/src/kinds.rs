//! What a type is to the generated conversions: a tensor of some kind, a tuple, a type
//! deriving `ExtensionType`, or a plain value.

use proc_macro2::{Ident, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use syn::{GenericArgument, PathArguments, Type};

/// The path (through the facade) of burn-dispatch's extension runtime.
pub(crate) fn runtime() -> TokenStream2 {
    quote!(::burn::backend::__dispatch::extension)
}

/// The primitive kinds, by their alias in `burn::backend::tensor`.
pub(crate) const TENSOR_ALIASES: [&str; 4] =
    ["FloatTensor", "IntTensor", "BoolTensor", "QuantizedTensor"];

/// How a value is converted between backends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A primitive; the name of its `TensorMap` / `TensorVisit` method.
    Tensor(&'static str),
    /// A tuple of values.
    Tuple(Vec<Kind>),
    /// `Option` of a value (fields of a derived type only).
    Option(Box<Kind>),
    /// `Vec` of a value (fields of a derived type only).
    Vec(Box<Kind>),
    /// A type deriving `ExtensionType`.
    Extension,
    /// Moved as it is.
    Plain,
}

impl Kind {
    /// Whether a value of this kind may hold a tensor.
    pub(crate) fn has_tensor(&self) -> bool {
        match self {
            Kind::Tensor(_) | Kind::Extension | Kind::Option(_) | Kind::Vec(_) => true,
            Kind::Tuple(kinds) => kinds.iter().any(Kind::has_tensor),
            Kind::Plain => false,
        }
    }
}

/// The tensor kind of `ty` when it is `Alias<param>` for one of the four aliases: `Ok(None)`
/// when it is not a tensor alias; an error when it is one over another type.
pub(crate) fn tensor_alias(ty: &Type, param: &str) -> syn::Result<Option<&'static str>> {
    let Type::Path(path) = ty else {
        return Ok(None);
    };
    if path.qself.is_some() {
        return Ok(None);
    }
    let Some(last) = path.path.segments.last() else {
        return Ok(None);
    };
    let Some(index) = TENSOR_ALIASES.iter().position(|a| last.ident == a) else {
        return Ok(None);
    };
    let method = ["float", "int", "bool", "quantized"][index];
    if let PathArguments::AngleBracketed(args) = &last.arguments
        && args.args.len() == 1
        && let Some(GenericArgument::Type(Type::Path(arg))) = args.args.first()
        && arg.qself.is_none()
        && arg.path.is_ident(param)
    {
        return Ok(Some(method));
    }
    Err(syn::Error::new_spanned(
        ty,
        format!(
            "expected `{}<{param}>`: a primitive of this backend",
            TENSOR_ALIASES[index]
        ),
    ))
}

/// The single type argument of `Name<T>` when `ty` is such a path ending in `name`.
pub(crate) fn wrapper_arg<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != name {
        return None;
    }
    match &last.arguments {
        PathArguments::AngleBracketed(args) if args.args.len() == 1 => match &args.args[0] {
            GenericArgument::Type(inner) => Some(inner),
            _ => None,
        },
        _ => None,
    }
}

/// Whether the identifier `param` appears anywhere in `ty`.
pub(crate) fn mentions(ty: &Type, param: &str) -> bool {
    fn walk(tokens: TokenStream2, param: &str) -> bool {
        tokens.into_iter().any(|tree| match tree {
            proc_macro2::TokenTree::Ident(ident) => ident == param,
            proc_macro2::TokenTree::Group(group) => walk(group.stream(), param),
            _ => false,
        })
    }
    walk(quote!(#ty), param)
}

/// `value` converted with the `TensorMap` in `map` (an identifier of a `&mut` binding).
pub(crate) fn convert(kind: &Kind, value: TokenStream2, map: &Ident, depth: usize) -> TokenStream2 {
    let rt = runtime();
    match kind {
        Kind::Tensor(method) => {
            let method = Ident::new(method, proc_macro2::Span::call_site());
            quote!(#rt::TensorMap::#method(&mut *#map, #value))
        }
        Kind::Extension => quote!(#rt::ExtensionType::map(#value, &mut *#map)),
        Kind::Plain => value,
        Kind::Option(inner) => {
            let item = format_ident!("__item{depth}");
            let body = convert(inner, quote!(#item), map, depth + 1);
            quote!(match #value { Some(#item) => Some(#body), None => None })
        }
        Kind::Vec(inner) => {
            let item = format_ident!("__item{depth}");
            let body = convert(inner, quote!(#item), map, depth + 1);
            quote!(#value.into_iter().map(|#item| #body).collect::<::std::vec::Vec<_>>())
        }
        Kind::Tuple(kinds) => {
            let names: Vec<Ident> = (0..kinds.len())
                .map(|i| format_ident!("__t{depth}_{i}"))
                .collect();
            let parts = kinds
                .iter()
                .zip(&names)
                .map(|(k, n)| convert(k, quote!(#n), map, depth + 1));
            quote!({ let (#(#names,)*) = #value; (#(#parts,)*) })
        }
    }
}

/// Visits the tensors of `value` (an expression of reference type) with the `TensorVisit` in
/// `visit` (an identifier of a `&mut` binding).
pub(crate) fn visit(
    kind: &Kind,
    value: TokenStream2,
    visit_id: &Ident,
    depth: usize,
) -> TokenStream2 {
    let rt = runtime();
    match kind {
        Kind::Tensor(method) => {
            let method = Ident::new(method, proc_macro2::Span::call_site());
            quote!(#rt::TensorVisit::#method(&mut *#visit_id, #value);)
        }
        Kind::Extension => quote!(#rt::ExtensionType::visit(#value, &mut *#visit_id);),
        Kind::Plain => quote!(),
        Kind::Option(inner) => {
            let item = format_ident!("__item{depth}");
            let body = visit(inner, quote!(#item), visit_id, depth + 1);
            quote!(if let Some(#item) = #value { #body })
        }
        Kind::Vec(inner) => {
            let item = format_ident!("__item{depth}");
            let body = visit(inner, quote!(#item), visit_id, depth + 1);
            quote!(for #item in #value { #body })
        }
        Kind::Tuple(kinds) => {
            let names: Vec<Ident> = (0..kinds.len())
                .map(|i| format_ident!("__t{depth}_{i}"))
                .collect();
            let parts = kinds
                .iter()
                .zip(&names)
                .map(|(k, n)| visit(k, quote!(#n), visit_id, depth + 1));
            quote!({ let (#(#names,)*) = #value; #(#parts)* })
        }
    }
}
