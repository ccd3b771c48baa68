//! `#[derive(Module)]`: `visit` and `map` over the fields (structs) or the variant's field
//! (enums), each entered under its name; `Clone` (a module is a value: cloning shares the
//! parameters' storage lazily), `ModuleDisplayDefault` (the fields as attributes),
//! `ModuleDisplay` (unless the type says `#[module(custom_display)]` and writes its own) and
//! `Display` through it, as Burn's derive gives them. A field marked `#[module(skip)]` is
//! carried along unvisited (it need only be `Clone + Debug + Send`) and shown with `Debug`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, spanned::Spanned};

pub(crate) fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let name = &input.ident;
    let mut generics = input.generics.clone();
    for param in generics.type_params_mut() {
        param.bounds.push(syn::parse_quote!(burn::module::Module));
        param
            .bounds
            .push(syn::parse_quote!(burn::module::ModuleDisplay));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let custom_display = has_custom_display(input)?;
    let (visit, map, clone, content) = match &input.data {
        Data::Struct(data) => struct_bodies(name, &data.fields)?,
        Data::Enum(data) => enum_bodies(name, data)?,
        Data::Union(_) => {
            return Err(syn::Error::new(
                input.span(),
                "derive(Module): unions are not supported; use a struct or an enum",
            ));
        }
    };
    let module_display = (!custom_display).then(|| {
        quote! {
            impl #impl_generics burn::module::ModuleDisplay for #name #ty_generics #where_clause {}
        }
    });
    Ok(quote! {
        impl #impl_generics burn::module::Module for #name #ty_generics #where_clause {
            fn visit<V: burn::module::ModuleVisitor>(&self, visitor: &mut V) {
                #visit
            }
            fn map<M: burn::module::ModuleMapper>(self, mapper: &mut M) -> Self {
                #map
            }
        }

        impl #impl_generics burn::module::ModuleDisplayDefault for #name #ty_generics #where_clause {
            fn content(
                &self,
                content: burn::module::Content,
            ) -> ::core::option::Option<burn::module::Content> {
                #content
            }
            fn num_params(&self) -> usize {
                burn::module::Module::num_params(self)
            }
        }

        #module_display

        impl #impl_generics ::core::clone::Clone for #name #ty_generics #where_clause {
            fn clone(&self) -> Self {
                #clone
            }
        }

        impl #impl_generics ::core::fmt::Display for #name #ty_generics #where_clause {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let text = burn::module::ModuleDisplay::format(self, ::core::default::Default::default());
                f.write_str(&text)
            }
        }
    })
}

/// Whether the type carries `#[module(custom_display)]` (it implements `ModuleDisplay`
/// itself); any other `module(...)` content on the type is an error.
fn has_custom_display(input: &DeriveInput) -> syn::Result<bool> {
    let mut custom = false;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("module")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("custom_display") {
                custom = true;
                Ok(())
            } else {
                Err(meta.error(
                    "derive(Module): the only type attribute is `#[module(custom_display)]`",
                ))
            }
        })?;
    }
    Ok(custom)
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

/// The generated bodies of `visit`, `map`, `clone` and `content`.
type Bodies = (TokenStream, TokenStream, TokenStream, TokenStream);

fn struct_bodies(name: &syn::Ident, fields: &Fields) -> syn::Result<Bodies> {
    let members = members(fields)?;
    let shown = members.iter().map(|(member, label, skip)| {
        if *skip {
            quote! { .add_debug_attribute(#label, &self.#member) }
        } else {
            quote! { .add(#label, &self.#member) }
        }
    });
    let content = quote! {
        content
            .set_top_level_type(stringify!(#name))
            #(#shown)*
            .optional()
    };
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
        content,
    ))
}

fn enum_bodies(name: &syn::Ident, data: &syn::DataEnum) -> syn::Result<Bodies> {
    let mut visit_arms = Vec::new();
    let mut map_arms = Vec::new();
    let mut clone_arms = Vec::new();
    let mut content_arms = Vec::new();
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
                content_arms.push(quote! {
                    #name::#ident(module) => content.add_single(module).optional()
                });
            }
            Fields::Unit => {
                visit_arms.push(quote! { #name::#ident => {} });
                map_arms.push(quote! { #name::#ident => #name::#ident });
                clone_arms.push(quote! { #name::#ident => #name::#ident });
                content_arms.push(quote! {
                    #name::#ident => content.add_formatted(&#label).optional()
                });
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
        quote! { match self { #(#content_arms),* } },
    ))
}
