//! `#[derive(Module)]`: `visit` and `map` over the fields (structs) or the variant's field
//! (enums), each entered under its name; `Clone` (a module is a value: cloning shares the
//! parameters' storage lazily) and `Display` (the module tree with parameter shapes), as Burn's
//! derive gives them. A field marked `#[module(skip)]` is carried along unvisited (it need only
//! be `Clone + Debug + Send`).

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
    let (visit, map, clone) = match &input.data {
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

        impl #impl_generics ::core::clone::Clone for #name #ty_generics #where_clause {
            fn clone(&self) -> Self {
                #clone
            }
        }

        impl #impl_generics ::core::fmt::Display for #name #ty_generics #where_clause {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                burn::module::display_module(self, stringify!(#name), f)
            }
        }
    })
}

/// Whether a field carries `#[module(skip)]`; any other `module(...)` content is an error.
fn is_skipped(field: &syn::Field) -> syn::Result<bool> {
    let mut skip = false;
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("module")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("skip") {
                skip = true;
                Ok(())
            } else {
                Err(meta.error("derive(Module): the only field attribute is `#[module(skip)]`"))
            }
        })?;
    }
    Ok(skip)
}

/// The members of a struct's fields with their labels and whether each is skipped.
fn members(fields: &Fields) -> syn::Result<Vec<(syn::Member, String, bool)>> {
    fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let (member, label) = match &f.ident {
                Some(ident) => (syn::Member::Named(ident.clone()), ident.to_string()),
                None => (syn::Member::Unnamed(i.into()), i.to_string()),
            };
            Ok((member, label, is_skipped(f)?))
        })
        .collect()
}

fn struct_bodies(fields: &Fields) -> syn::Result<(TokenStream, TokenStream, TokenStream)> {
    let members = members(fields)?;
    let visit = members
        .iter()
        .filter(|(_, _, skip)| !skip)
        .map(|(member, label, _)| {
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
        .map(|((member, label, skip), binding)| {
            if *skip {
                quote! { let #binding = self.#member; }
            } else {
                quote! {
                    mapper.enter_module(#label, "Struct");
                    let #binding = burn::module::Module::map(self.#member, mapper);
                    mapper.exit_module(#label, "Struct");
                }
            }
        });
    let rebuild = members
        .iter()
        .zip(&bindings)
        .map(|((member, _, _), binding)| quote! { #member: #binding });
    let clones = members
        .iter()
        .map(|(member, _, _)| quote! { #member: ::core::clone::Clone::clone(&self.#member) });
    Ok((
        quote! { #(#visit)* },
        quote! {
            #(#map_fields)*
            Self { #(#rebuild),* }
        },
        quote! { Self { #(#clones),* } },
    ))
}

fn enum_bodies(
    name: &syn::Ident,
    data: &syn::DataEnum,
) -> syn::Result<(TokenStream, TokenStream, TokenStream)> {
    let mut visit_arms = Vec::new();
    let mut map_arms = Vec::new();
    let mut clone_arms = Vec::new();
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
                clone_arms.push(quote! {
                    #name::#ident(module) => #name::#ident(::core::clone::Clone::clone(module))
                });
            }
            Fields::Unit => {
                visit_arms.push(quote! { #name::#ident => {} });
                map_arms.push(quote! { #name::#ident => #name::#ident });
                clone_arms.push(quote! { #name::#ident => #name::#ident });
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
        quote! { match self { #(#clone_arms),* } },
    ))
}
