//! One operation's signature: each argument and the result classified by how the routing
//! converts it.

use crate::kinds::{Kind, TENSOR_ALIASES, mentions, tensor_alias};
use syn::{FnArg, GenericArgument, Ident, PathArguments, ReturnType, TraitItemFn, Type};

/// An operation of the trait, read for routing.
pub(crate) struct Signature {
    /// The method's signature as written (markers removed).
    pub(crate) sig: syn::Signature,
    /// The kind of each argument, in order.
    pub(crate) args: Vec<(Type, Kind)>,
    /// The kind of the result.
    pub(crate) output: Kind,
}

fn accepted() -> String {
    let tensors: Vec<String> = TENSOR_ALIASES
        .iter()
        .map(|a| format!("`{a}<Self>`"))
        .collect();
    format!(
        "accepted types are {}, tuples of them, types deriving `ExtensionType` (arguments \
         marked `#[extension_type]`), and values whose type does not mention `Self`",
        tensors.join(", ")
    )
}

/// The kind of an argument or result type.
fn classify(ty: &Type, extension: bool, what: &str) -> syn::Result<Kind> {
    if extension {
        return Ok(Kind::Extension);
    }
    if let Some(method) = tensor_alias(ty, "Self")? {
        return Ok(Kind::Tensor(method));
    }
    match ty {
        Type::Paren(inner) => return classify(&inner.elem, false, what),
        Type::Group(inner) => return classify(&inner.elem, false, what),
        Type::Tuple(tuple) => {
            let kinds = tuple
                .elems
                .iter()
                .map(|t| classify(t, false, what))
                .collect::<syn::Result<Vec<_>>>()?;
            return Ok(if kinds.iter().any(Kind::has_tensor) {
                Kind::Tuple(kinds)
            } else {
                Kind::Plain
            });
        }
        _ => {}
    }
    if !mentions(ty, "Self") {
        return Ok(Kind::Plain);
    }
    if what == "result" && is_generic_over_self(ty) {
        return Ok(Kind::Extension);
    }
    let hint = if what == "argument" && is_generic_over_self(ty) {
        " (if it derives `ExtensionType`, mark the argument `#[extension_type]`)"
    } else {
        ""
    };
    Err(syn::Error::new_spanned(
        ty,
        format!(
            "unsupported {what} type of a backend extension{hint}: {}",
            accepted()
        ),
    ))
}

/// `Name<Self>` (a type deriving `ExtensionType`, instantiated on the backend).
fn is_generic_over_self(ty: &Type) -> bool {
    let Type::Path(path) = ty else { return false };
    let Some(last) = path.path.segments.last() else {
        return false;
    };
    matches!(&last.arguments, PathArguments::AngleBracketed(args)
        if args.args.len() == 1
            && matches!(&args.args[0], GenericArgument::Type(Type::Path(p)) if p.path.is_ident("Self")))
}

impl Signature {
    /// Reads `function`, removing the `#[extension_type]` markers from its arguments.
    pub(crate) fn read(function: &mut TraitItemFn) -> syn::Result<Self> {
        let mut args = Vec::new();
        for input in &mut function.sig.inputs {
            match input {
                FnArg::Receiver(receiver) => {
                    return Err(syn::Error::new_spanned(
                        receiver,
                        "backend operations are associated functions: they take tensors, not \
                         `self`",
                    ));
                }
                FnArg::Typed(typed) => {
                    let before = typed.attrs.len();
                    typed.attrs.retain(|a| !a.path().is_ident("extension_type"));
                    let extension = typed.attrs.len() != before;
                    args.push((
                        (*typed.ty).clone(),
                        classify(&typed.ty, extension, "argument")?,
                    ));
                }
            }
        }
        let output = match &function.sig.output {
            ReturnType::Default => Kind::Plain,
            ReturnType::Type(_, ty) => classify(ty, false, "result")?,
        };
        Ok(Self {
            sig: function.sig.clone(),
            args,
            output,
        })
    }

    /// The method's name.
    pub(crate) fn name(&self) -> &Ident {
        &self.sig.ident
    }

    /// Whether some argument may hold a tensor (to route on).
    pub(crate) fn has_tensor_input(&self) -> bool {
        self.args.iter().any(|(_, kind)| kind.has_tensor())
    }
}
