//! `#[derive(Config)]`: builders (`new` with the required fields, `with_<field>` for the
//! others), `Clone`, serde's traits through a hidden mirror type, `Display` as JSON, and the
//! `burn::config::Config` marker.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, spanned::Spanned};

/// One field of a config struct.
struct ConfigField {
    ident: syn::Ident,
    ty: syn::Type,
    default: Option<syn::Expr>,
    optional: bool,
    docs: Vec<syn::Attribute>,
}

pub(crate) fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new(
            input.generics.span(),
            "derive(Config): generic configs are not supported",
        ));
    }
    match &input.data {
        Data::Struct(data) => expand_struct(input, &data.fields),
        Data::Enum(data) => expand_enum(input, data),
        Data::Union(_) => Err(syn::Error::new(
            input.span(),
            "derive(Config): unions are not supported",
        )),
    }
}

/// The expression of `#[config(default = …)]`: an expression, or a string holding one.
fn default_of(field: &syn::Field) -> syn::Result<Option<syn::Expr>> {
    let mut default = None;
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("config")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("default") {
                let expr: syn::Expr = meta.value()?.parse()?;
                let expr = match expr {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(text),
                        ..
                    }) => text.parse()?,
                    other => other,
                };
                default = Some(expr);
                Ok(())
            } else {
                Err(meta.error("derive(Config): expected `default = …`"))
            }
        })?;
    }
    Ok(default)
}

fn is_option(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Option"))
}

fn expand_struct(input: &DeriveInput, fields: &Fields) -> syn::Result<TokenStream> {
    let name = &input.ident;
    let Fields::Named(named) = fields else {
        return Err(syn::Error::new(
            fields.span(),
            "derive(Config): a config struct needs named fields",
        ));
    };
    let fields = named
        .named
        .iter()
        .map(|f| {
            Ok(ConfigField {
                ident: f.ident.clone().expect("named field"),
                ty: f.ty.clone(),
                default: default_of(f)?,
                optional: is_option(&f.ty),
                docs: f
                    .attrs
                    .iter()
                    .filter(|a| a.path().is_ident("doc"))
                    .cloned()
                    .collect(),
            })
        })
        .collect::<syn::Result<Vec<_>>>()?;

    let required: Vec<&ConfigField> = fields
        .iter()
        .filter(|f| f.default.is_none() && !f.optional)
        .collect();
    let new_args = required.iter().map(|f| {
        let (ident, ty) = (&f.ident, &f.ty);
        quote! { #ident: #ty }
    });
    let new_fields = fields.iter().map(|f| {
        let ident = &f.ident;
        match (&f.default, f.optional) {
            (Some(default), _) => quote! { #ident: #default },
            (None, true) => quote! { #ident: None },
            (None, false) => quote! { #ident },
        }
    });
    let builders = fields
        .iter()
        .filter(|f| f.default.is_some() || f.optional)
        .map(|f| {
            let (ident, ty, docs) = (&f.ident, &f.ty, &f.docs);
            let with = format_ident!("with_{}", ident);
            quote! {
                #(#docs)*
                pub fn #with(mut self, #ident: #ty) -> Self {
                    self.#ident = #ident;
                    self
                }
            }
        });
    let required_docs = required
        .iter()
        .map(|f| format!("`{}`", f.ident))
        .collect::<Vec<_>>()
        .join(", ");
    let new_doc = if required.is_empty() {
        "A config with every field at its default.".to_string()
    } else {
        format!(
            "A config from its required fields ({required_docs}), the others at their defaults."
        )
    };

    let idents: Vec<&syn::Ident> = fields.iter().map(|f| &f.ident).collect();
    let types: Vec<&syn::Type> = fields.iter().map(|f| &f.ty).collect();
    let serde_default = fields.iter().map(|f| {
        if f.optional {
            quote! { #[serde(default)] }
        } else {
            quote! {}
        }
    });
    let mirror = format_ident!("{}Mirror", name);
    let common = common_impls(name);
    Ok(quote! {
        impl #name {
            #[doc = #new_doc]
            #[allow(clippy::new_without_default)]
            pub fn new(#(#new_args),*) -> Self {
                Self { #(#new_fields),* }
            }
            #(#builders)*
        }

        impl Clone for #name {
            fn clone(&self) -> Self {
                Self { #(#idents: Clone::clone(&self.#idents)),* }
            }
        }

        const _: () = {
            #[derive(burn::serde::Serialize, burn::serde::Deserialize)]
            #[serde(crate = "burn::serde")]
            struct #mirror {
                #(#serde_default #idents: #types),*
            }
            impl burn::serde::Serialize for #name {
                fn serialize<S: burn::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    let mirror = #mirror { #(#idents: Clone::clone(&self.#idents)),* };
                    burn::serde::Serialize::serialize(&mirror, serializer)
                }
            }
            impl<'de> burn::serde::Deserialize<'de> for #name {
                fn deserialize<D: burn::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    let mirror = <#mirror as burn::serde::Deserialize>::deserialize(deserializer)?;
                    Ok(Self { #(#idents: mirror.#idents),* })
                }
            }
        };

        #common
    })
}

fn expand_enum(input: &DeriveInput, data: &syn::DataEnum) -> syn::Result<TokenStream> {
    let name = &input.ident;
    let mirror = format_ident!("{}Mirror", name);
    let mut mirror_variants = Vec::new();
    let mut to_mirror = Vec::new();
    let mut from_mirror = Vec::new();
    let mut clones = Vec::new();
    for variant in &data.variants {
        let ident = &variant.ident;
        match &variant.fields {
            Fields::Unit => {
                mirror_variants.push(quote! { #ident });
                to_mirror.push(quote! { #name::#ident => #mirror::#ident });
                from_mirror.push(quote! { #mirror::#ident => #name::#ident });
                clones.push(quote! { #name::#ident => #name::#ident });
            }
            Fields::Named(named) => {
                let ids: Vec<_> = named
                    .named
                    .iter()
                    .map(|f| f.ident.clone().expect("named"))
                    .collect();
                let tys: Vec<_> = named.named.iter().map(|f| f.ty.clone()).collect();
                mirror_variants.push(quote! { #ident { #(#ids: #tys),* } });
                to_mirror.push(quote! { #name::#ident { #(#ids),* } => #mirror::#ident { #(#ids: Clone::clone(#ids)),* } });
                from_mirror
                    .push(quote! { #mirror::#ident { #(#ids),* } => #name::#ident { #(#ids),* } });
                clones.push(quote! { #name::#ident { #(#ids),* } => #name::#ident { #(#ids: Clone::clone(#ids)),* } });
            }
            Fields::Unnamed(unnamed) => {
                let ids: Vec<_> = (0..unnamed.unnamed.len())
                    .map(|i| format_ident!("v{i}"))
                    .collect();
                let tys: Vec<_> = unnamed.unnamed.iter().map(|f| f.ty.clone()).collect();
                mirror_variants.push(quote! { #ident(#(#tys),*) });
                to_mirror.push(
                    quote! { #name::#ident(#(#ids),*) => #mirror::#ident(#(Clone::clone(#ids)),*) },
                );
                from_mirror.push(quote! { #mirror::#ident(#(#ids),*) => #name::#ident(#(#ids),*) });
                clones.push(
                    quote! { #name::#ident(#(#ids),*) => #name::#ident(#(Clone::clone(#ids)),*) },
                );
            }
        }
    }
    let common = common_impls(name);
    Ok(quote! {
        impl Clone for #name {
            fn clone(&self) -> Self {
                match self { #(#clones),* }
            }
        }

        const _: () = {
            #[derive(burn::serde::Serialize, burn::serde::Deserialize)]
            #[serde(crate = "burn::serde")]
            enum #mirror { #(#mirror_variants),* }
            impl burn::serde::Serialize for #name {
                fn serialize<S: burn::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    let mirror = match self { #(#to_mirror),* };
                    burn::serde::Serialize::serialize(&mirror, serializer)
                }
            }
            impl<'de> burn::serde::Deserialize<'de> for #name {
                fn deserialize<D: burn::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    let mirror = <#mirror as burn::serde::Deserialize>::deserialize(deserializer)?;
                    Ok(match mirror { #(#from_mirror),* })
                }
            }
        };

        #common
    })
}

/// `Config` and `Display` (pretty JSON).
fn common_impls(name: &syn::Ident) -> TokenStream {
    quote! {
        impl burn::config::Config for #name {}

        impl core::fmt::Display for #name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(&burn::config::config_to_json(self))
            }
        }
    }
}
