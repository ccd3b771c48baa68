//! Signatures as normalized text, so that two crates' items compare as strings: paths shortened
//! to their last segment (`crate::Tensor` and `burn_tensor::Tensor` are both `Tensor`),
//! lifetimes and argument names dropped, `self` written the way it is taken.

use super::rustdoc::inner;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// A type as a caller writes it, without lifetimes and with paths shortened.
pub fn ty(t: &Value) -> String {
    let Some((kind, v)) = t.as_object().and_then(|o| o.iter().next()) else {
        return t
            .as_str()
            .map(|s| if s == "infer" { "_" } else { s })
            .unwrap_or("?")
            .to_string();
    };
    match kind.as_str() {
        "resolved_path" => path(v),
        "generic" | "primitive" => v.as_str().unwrap_or("?").to_string(),
        "borrowed_ref" => {
            let m = if v["is_mutable"].as_bool() == Some(true) {
                "mut "
            } else {
                ""
            };
            format!("&{m}{}", ty(&v["type"]))
        }
        "raw_pointer" => {
            let m = if v["is_mutable"].as_bool() == Some(true) {
                "mut"
            } else {
                "const"
            };
            format!("*{m} {}", ty(&v["type"]))
        }
        "tuple" => {
            let parts: Vec<String> = list(v).iter().map(ty).collect();
            if parts.len() == 1 {
                format!("({},)", parts[0])
            } else {
                format!("({})", parts.join(", "))
            }
        }
        "slice" => format!("[{}]", ty(v)),
        "array" => format!("[{}; {}]", ty(&v["type"]), v["len"].as_str().unwrap_or("?")),
        "impl_trait" => format!("impl {}", bounds(v)),
        "dyn_trait" => {
            let traits: Vec<String> = list(&v["traits"])
                .iter()
                .map(|p| path(&p["trait"]))
                .collect();
            format!("dyn {}", traits.join(" + "))
        }
        "qualified_path" => {
            let name = v["name"].as_str().unwrap_or("?");
            let self_type = ty(&v["self_type"]);
            if v["trait"].is_null() {
                format!("{self_type}::{name}")
            } else {
                format!("<{self_type} as {}>::{name}", path(&v["trait"]))
            }
        }
        "function_pointer" => {
            let sig = &v["sig"];
            let inputs: Vec<String> = list(&sig["inputs"]).iter().map(|p| ty(&p[1])).collect();
            format!("fn({}){}", inputs.join(", "), output(&sig["output"]))
        }
        other => format!("<{other}>"),
    }
}

/// A path with its generic arguments: `Tensor<D, Float>`, `Fn(usize) -> bool`.
pub fn path(p: &Value) -> String {
    let full = p["path"]
        .as_str()
        .or_else(|| p["name"].as_str())
        .unwrap_or("?");
    let last = full.rsplit("::").next().unwrap_or(full);
    format!("{last}{}", without_defaults(last, args(&p["args"])))
}

/// The default type arguments of the loaded crates' types, by the type's last name and the
/// argument's position: `Tensor<D, Float>` is written `Tensor<D>`, as `Tensor`'s `K` defaults
/// to `Float`, so that the two spellings of one type compare equal.
static DEFAULTS: std::sync::Mutex<Option<Defaults>> = std::sync::Mutex::new(None);

/// Per type name, per argument position, the defaults recorded for it.
type Defaults = HashMap<String, HashMap<usize, HashSet<String>>>;

/// Records the default type arguments of every type, trait and alias of one crate's index.
pub fn record_defaults(index: &Value) {
    let Some(items) = index.as_object() else {
        return;
    };
    // Rendered before taking the lock: rendering reads the table.
    let mut found = Vec::new();
    for item in items.values() {
        let Some(name) = item["name"].as_str() else {
            continue;
        };
        let params = list(&inner(item)["generics"]["params"]);
        // Lifetimes are not written in the rendered arguments: count the others only.
        let params = params
            .iter()
            .filter(|p| p["kind"].get("lifetime").is_none());
        for (position, param) in params.enumerate() {
            let default = match param["kind"].as_object().and_then(|o| o.iter().next()) {
                Some((k, v)) if k == "type" && !v["default"].is_null() => ty(&v["default"]),
                Some((k, v)) if k == "const" && v["default"].is_string() => {
                    v["default"].as_str().unwrap_or_default().to_string()
                }
                _ => continue,
            };
            found.push((name.to_string(), position, default));
        }
    }
    let mut guard = DEFAULTS.lock().unwrap();
    let defaults = guard.get_or_insert_with(HashMap::new);
    for (name, position, default) in found {
        defaults
            .entry(name)
            .or_default()
            .entry(position)
            .or_default()
            .insert(default);
    }
}

/// `args` (`<A, B, C>`) of the type `name` without its trailing arguments equal to defaults.
fn without_defaults(name: &str, args: String) -> String {
    let guard = DEFAULTS.lock().unwrap();
    let Some(defaults) = guard.as_ref().and_then(|d| d.get(name)) else {
        return args;
    };
    let Some(inside) = args.strip_prefix('<').and_then(|a| a.strip_suffix('>')) else {
        return args;
    };
    let mut parts = split_top_level(inside);
    while let Some(last) = parts.last() {
        let position = parts.len() - 1;
        if defaults
            .get(&position)
            .is_some_and(|d| d.contains(last.as_str()))
        {
            parts.pop();
        } else {
            break;
        }
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("<{}>", parts.join(", "))
    }
}

/// Splits `A, B<C, D>, (E, F)` at its top-level commas.
fn split_top_level(text: &str) -> Vec<String> {
    let (mut parts, mut depth, mut current) = (Vec::new(), 0i32, String::new());
    for c in text.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            // The `>` of a `->` closes nothing.
            '>' if current.ends_with('-') => {}
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(current.trim().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        parts.push(current.trim().to_string());
    }
    parts
}

/// Generic arguments of a path segment (`<..>` or `(..) -> ..`), empty when there are none.
fn args(a: &Value) -> String {
    if let Some(angle) = a.get("angle_bracketed") {
        let mut parts: Vec<String> = list(&angle["args"])
            .iter()
            .filter_map(|arg| {
                if let Some(t) = arg.get("type") {
                    Some(ty(t))
                } else if let Some(c) = arg.get("const") {
                    Some(c["expr"].as_str().unwrap_or("?").to_string())
                } else if arg.get("lifetime").is_some() {
                    None
                } else {
                    Some("_".to_string())
                }
            })
            .collect();
        for c in list(&angle["constraints"]) {
            let name = c["name"].as_str().unwrap_or("?");
            let binding = &c["binding"];
            if let Some(eq) = binding.get("equality") {
                let value = eq.get("type").map(ty).unwrap_or_else(|| "?".to_string());
                parts.push(format!("{name} = {value}"));
            } else if let Some(b) = binding.get("constraint") {
                parts.push(format!("{name}: {}", bounds(b)));
            }
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("<{}>", parts.join(", "))
        }
    } else if let Some(paren) = a.get("parenthesized") {
        let inputs: Vec<String> = list(&paren["inputs"]).iter().map(ty).collect();
        format!("({}){}", inputs.join(", "), output(&paren["output"]))
    } else {
        String::new()
    }
}

/// A list of bounds `A + B<C>`, lifetimes dropped, `?Sized` kept.
pub fn bounds(b: &Value) -> String {
    let mut parts: Vec<String> = list(b)
        .iter()
        .filter_map(|bound| {
            let tb = bound.get("trait_bound")?;
            let prefix = if tb["modifier"].as_str() == Some("maybe") {
                "?"
            } else {
                ""
            };
            Some(format!("{prefix}{}", path(&tb["trait"])))
        })
        .collect();
    parts.sort();
    parts.join(" + ")
}

/// ` -> T`, or nothing for `()`.
fn output(o: &Value) -> String {
    if o.is_null() {
        String::new()
    } else {
        format!(" -> {}", ty(o))
    }
}

/// Generic parameters with their bounds, lifetimes dropped: `<const D: usize, K: Numeric = Float>`,
/// followed by the where-clause if there is one. Where-clause bounds on a parameter itself are
/// written on the parameter, so that `<K: A>` and `<K> where K: A` compare equal.
pub fn generics(g: &Value) -> (String, String) {
    let mut preds: Vec<(String, String)> = list(&g["where_predicates"])
        .iter()
        .filter_map(|w| {
            let bp = w.get("bound_predicate")?;
            let b = bounds(&bp["bounds"]);
            (!b.is_empty()).then(|| (ty(&bp["type"]), b))
        })
        .collect();
    let params: Vec<String> = list(&g["params"])
        .iter()
        .filter_map(|p| {
            let name = p["name"].as_str().unwrap_or("?");
            let kind = &p["kind"];
            if let Some(t) = kind.get("type") {
                if t["is_synthetic"].as_bool() == Some(true) {
                    return None; // an `impl Trait` argument, shown in place
                }
                let mut all: Vec<String> = vec![bounds(&t["bounds"])];
                preds.retain(|(target, b)| {
                    let mine = target == name;
                    if mine {
                        all.push(b.clone());
                    }
                    !mine
                });
                let mut parts: Vec<&str> = all
                    .iter()
                    .flat_map(|b| b.split(" + "))
                    .filter(|b| !b.is_empty())
                    .collect();
                parts.sort();
                parts.dedup();
                let mut s = if parts.is_empty() {
                    name.to_string()
                } else {
                    format!("{name}: {}", parts.join(" + "))
                };
                if !t["default"].is_null() {
                    s.push_str(&format!(" = {}", ty(&t["default"])));
                }
                Some(s)
            } else {
                kind.get("const")
                    .map(|c| format!("const {name}: {}", ty(&c["type"])))
            }
        })
        .collect();
    let mut preds: Vec<String> = preds
        .into_iter()
        .map(|(t, b)| format!("{t}: {b}"))
        .collect();
    preds.sort();
    let params = if params.is_empty() {
        String::new()
    } else {
        format!("<{}>", params.join(", "))
    };
    let preds = if preds.is_empty() {
        String::new()
    } else {
        format!(" where {}", preds.join(", "))
    };
    (params, preds)
}

/// A function's signature: `fn<I: AsIndex>(self, I) -> Self`.
pub fn function(f: &Value) -> String {
    let sig = &f["sig"];
    let inputs: Vec<String> = list(&sig["inputs"])
        .iter()
        .map(|p| {
            let name = p[0].as_str().unwrap_or("");
            let t = ty(&p[1]);
            match (name, t.as_str()) {
                ("self", "Self") => "self".to_string(),
                ("self", "&Self") => "&self".to_string(),
                ("self", "&mut Self") => "&mut self".to_string(),
                _ => t,
            }
        })
        .collect();
    let header = &f["header"];
    let mut prefix = String::new();
    for (flag, word) in [
        ("is_const", "const "),
        ("is_async", "async "),
        ("is_unsafe", "unsafe "),
    ] {
        if header[flag].as_bool() == Some(true) {
            prefix.push_str(word);
        }
    }
    let (params, preds) = generics(&f["generics"]);
    format!(
        "{prefix}fn{params}({}){}{preds}",
        inputs.join(", "),
        output(&sig["output"])
    )
}

/// The signature of an item of any kind, as compared between the two crates.
pub fn item(item: &Value, kind: &str) -> String {
    let v = inner(item);
    match kind {
        "function" => function(v),
        "struct" | "enum" | "union" | "trait" | "trait_alias" => {
            let (params, preds) = generics(&v["generics"]);
            let supertraits = if kind == "trait" && !bounds(&v["bounds"]).is_empty() {
                format!(": {}", bounds(&v["bounds"]))
            } else {
                String::new()
            };
            format!("{kind}{params}{supertraits}{preds}")
        }
        "type_alias" => {
            let (params, _) = generics(&v["generics"]);
            format!("type{params} = {}", ty(&v["type"]))
        }
        "constant" => format!("const: {}", ty(&v["type"])),
        "static" => format!("static: {}", ty(&v["type"])),
        "assoc_const" => format!("const: {}", ty(&v["type"])),
        "assoc_type" => format!("type: {}", bounds(&v["bounds"])),
        "struct_field" => ty(v),
        "variant" => variant(v),
        "proc_macro" => {
            let helpers: Vec<&str> = list(&v["helpers"])
                .iter()
                .filter_map(Value::as_str)
                .collect();
            format!(
                "{} macro, attributes [{}]",
                v["kind"].as_str().unwrap_or("?"),
                helpers.join(", ")
            )
        }
        other => other.to_string(),
    }
}

/// An enum variant's shape: unit, `(T, U)` or `{ fields }` (field types are separate entries).
fn variant(v: &Value) -> String {
    match &v["kind"] {
        Value::String(s) if s == "plain" => "unit".to_string(),
        k if k.get("tuple").is_some() => format!("tuple of {}", list(&k["tuple"]).len()),
        k if k.get("struct").is_some() => "struct".to_string(),
        _ => "?".to_string(),
    }
}

/// A JSON array as a slice (empty for anything else).
pub fn list(v: &Value) -> &[Value] {
    v.as_array().map(Vec::as_slice).unwrap_or(&[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_arguments_are_dropped_from_the_end_only() {
        let index = serde_json::json!({
            "0": {"name": "Holder", "inner": {"struct": {"generics": {"params": [
                {"name": "'a", "kind": {"lifetime": {"outlives": []}}},
                {"name": "D", "kind": {"const": {"type": {"primitive": "usize"}, "default": null}}},
                {"name": "K", "kind": {"type": {"bounds": [], "default": {"generic": "Float"}, "is_synthetic": false}}}
            ]}}}}
        });
        record_defaults(&index);
        assert_eq!(without_defaults("Holder", "<D, Float>".into()), "<D>");
        assert_eq!(without_defaults("Holder", "<D, Int>".into()), "<D, Int>");
        assert_eq!(without_defaults("Other", "<D, Float>".into()), "<D, Float>");
        assert_eq!(
            split_top_level("A, impl Fn(B, C) -> D<E, F>, [G; 2]"),
            ["A", "impl Fn(B, C) -> D<E, F>", "[G; 2]"]
        );
    }
}
