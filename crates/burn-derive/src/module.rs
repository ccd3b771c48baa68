//! `#[derive(Module)]`: `visit` and `map` over the fields (structs) or the variant's field
//! (enums), each entered under its name.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, spanned::Spanned};

pub(crate) fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let name = &input.ident;
    let mut generics = input.generics.clone();
    for param in generics.type_params_mut() {
        param.bounds.push(syn::parse_quote!(burn::module::Module));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let (visit, map) = match &input.data {
        Data::Struct(data) => struct_bodies(&data.fields)?,
        Data::Enum(data) => enum_bodies(name, data)?,
        Data::Union(_) => {
            return Err(syn::Error::new(
                input.span(),
                "derive(Module): unions are not supported; use a struct or an enum",
            ));
        }
    };
    Ok(quote! {
        impl #impl_generics burn::module::Module for #name #ty_generics #where_clause {
            fn visit<V: burn::module::ModuleVisitor>(&self, visitor: &mut V) {
                #visit
            }
            fn map<M: burn::module::ModuleMapper>(self, mapper: &mut M) -> Self {
                #map
            }
        }
    })
}

fn struct_bodies(fields: &Fields) -> syn::Result<(TokenStream, TokenStream)> {
    let members: Vec<(syn::Member, String)> = match fields {
        Fields::Named(named) => named
            .named
            .iter()
            .map(|f| {
                let ident = f.ident.clone().expect("named field");
                (syn::Member::Named(ident.clone()), ident.to_string())
            })
            .collect(),
        Fields::Unnamed(unnamed) => (0..unnamed.unnamed.len())
            .map(|i| (syn::Member::Unnamed(i.into()), i.to_string()))
            .collect(),
        Fields::Unit => Vec::new(),
    };
    let visit = members.iter().map(|(member, label)| {
        quote! {
            visitor.enter_module(#label, "Struct");
            burn::module::Module::visit(&self.#member, visitor);
            visitor.exit_module(#label, "Struct");
        }
    });
    let bindings: Vec<_> = (0..members.len())
        .map(|i| format_ident!("field_{i}"))
        .collect();
    let map_fields = members
        .iter()
        .zip(&bindings)
        .map(|((member, label), binding)| {
            quote! {
                mapper.enter_module(#label, "Struct");
                let #binding = burn::module::Module::map(self.#member, mapper);
                mapper.exit_module(#label, "Struct");
            }
        });
    let rebuild = members
        .iter()
        .zip(&bindings)
        .map(|((member, _), binding)| quote! { #member: #binding });
    Ok((
        quote! { #(#visit)* },
        quote! {
            #(#map_fields)*
            Self { #(#rebuild),* }
        },
    ))
}

fn enum_bodies(name: &syn::Ident, data: &syn::DataEnum) -> syn::Result<(TokenStream, TokenStream)> {
    let mut visit_arms = Vec::new();
    let mut map_arms = Vec::new();
    for variant in &data.variants {
        let ident = &variant.ident;
        let label = ident.to_string();
        match &variant.fields {
            Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                visit_arms.push(quote! {
                    #name::#ident(module) => {
                        visitor.enter_module(#label, "Enum");
                        burn::module::Module::visit(module, visitor);
                        visitor.exit_module(#label, "Enum");
                    }
                });
                map_arms.push(quote! {
                    #name::#ident(module) => {
                        mapper.enter_module(#label, "Enum");
                        let module = burn::module::Module::map(module, mapper);
                        mapper.exit_module(#label, "Enum");
                        #name::#ident(module)
                    }
                });
            }
            Fields::Unit => {
                visit_arms.push(quote! { #name::#ident => {} });
                map_arms.push(quote! { #name::#ident => #name::#ident });
            }
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    "derive(Module): enum variants must hold exactly one module (`Variant(Module)`) or nothing",
                ));
            }
        }
    }
    Ok((
        quote! { match self { #(#visit_arms)* } },
        quote! { match self { #(#map_arms),* } },
    ))
}
