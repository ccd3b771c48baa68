//! The public items of a facade crate, by the path a user writes: every module reached from the
//! crate root (re-exports and globs followed), every item in them, and for each type its
//! inherent methods, pub fields, variants and trait impls (listed once, at the type's shortest
//! path).

use super::render;
use super::rustdoc::{Docs, ItemRef, Target, inner, is_public, kind};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};

/// One public item.
#[derive(Clone, Debug)]
pub struct Entry {
    /// `struct`, `function`, `method`, `field`, `impl`, `module`, ...
    pub kind: String,
    /// The normalized signature compared between the two crates.
    pub sig: String,
    /// The item's documentation (its examples are the parity test's programs).
    pub docs: String,
}

/// Items by key: the path a user writes (`burn::tensor::Tensor::sum_dim`), with `!` appended for
/// macros, `.name` for fields and `: Trait` for trait impls.
pub type Inventory = BTreeMap<String, Entry>;

/// For each path that owns an item's members, the other paths of the same item
/// (`burn::backend::TensorData` -> `burn::tensor::TensorData`, `burn::prelude::TensorData`).
pub type Aliases = BTreeMap<String, Vec<String>>;

/// Paths deeper than this are not followed (modules re-exported inside each other).
const MAX_DEPTH: usize = 7;

/// The inventory of the crate `root` (`burn`) as `docs` describes it. A type's members are
/// listed at its shortest path, or at every path with `members_at_every_path` (the crate
/// compared against Burn's: its members must be found at whichever path Burn's shortest is).
pub fn collect(
    docs: &Docs,
    root: &str,
    members_at_every_path: bool,
) -> Result<(Inventory, Aliases), String> {
    let root_ref = docs
        .root(root)
        .ok_or_else(|| format!("no rustdoc JSON for `{root}`"))?;
    let mut found = Vec::new();
    walk(
        docs,
        &root_ref,
        root,
        &mut found,
        &mut vec![root_ref.clone()],
    );

    // The shortest path of each item (ties: outside `prelude`, then alphabetical) owns its children.
    let mut canonical: HashMap<ItemRef, String> = HashMap::new();
    for (path, target) in &found {
        if let Target::Item(r) = target {
            let better = match canonical.get(r) {
                None => true,
                Some(old) => rank(path) < rank(old),
            };
            if better {
                canonical.insert(r.clone(), path.clone());
            }
        }
    }

    let mut aliases = Aliases::new();
    for (path, target) in &found {
        if let Target::Item(r) = target
            && let Some(owner) = canonical.get(r)
            && owner != path
        {
            aliases.entry(owner.clone()).or_default().push(path.clone());
        }
    }

    let mut out = Inventory::new();
    for (path, target) in &found {
        match target {
            Target::External {
                path: defined_at,
                kind,
            } => {
                let key = key_for(path, kind);
                let sig = format!("{kind} {defined_at}");
                out.insert(
                    key,
                    Entry {
                        kind: kind.clone(),
                        sig,
                        docs: String::new(),
                    },
                );
            }
            Target::Item(r) => {
                let item = docs.item(r);
                let k = kind(item).to_string();
                let docs_text = item["docs"].as_str().unwrap_or("").to_string();
                let sig = render::item(item, &k);
                out.insert(
                    key_for(path, &k),
                    Entry {
                        kind: k,
                        sig,
                        docs: docs_text,
                    },
                );
                if members_at_every_path || canonical.get(r) == Some(path) {
                    children(docs, r, item, path, &mut out);
                }
            }
        }
    }
    Ok((out, aliases))
}

/// Sort key of a path for choosing the canonical one.
fn rank(path: &str) -> (usize, bool, String) {
    (
        path.split("::").count(),
        path.split("::").any(|s| s == "prelude"),
        path.to_string(),
    )
}

/// The inventory key of an item at `path`: macros live in their own namespace.
fn key_for(path: &str, kind: &str) -> String {
    match kind {
        "macro" | "proc_macro" | "proc_derive" | "proc_attribute" => format!("{path}!"),
        _ => path.to_string(),
    }
}

/// Collects `(path, target)` for everything reachable from `module`.
fn walk(
    docs: &Docs,
    module: &ItemRef,
    prefix: &str,
    found: &mut Vec<(String, Target)>,
    stack: &mut Vec<ItemRef>,
) {
    for (name, target) in members(docs, module, &mut HashSet::new()) {
        let path = format!("{prefix}::{name}");
        if let Target::Item(r) = &target
            && kind(docs.item(r)) == "module"
            && !stack.contains(r)
            && path.split("::").count() < MAX_DEPTH
        {
            stack.push(r.clone());
            walk(docs, r, &path, found, stack);
            stack.pop();
        }
        found.push((path, target));
    }
}

/// The public names of a module: its own items and `pub use`s, then glob re-exports for the
/// names not already taken (in the same namespace).
fn members(
    docs: &Docs,
    module: &ItemRef,
    globs_seen: &mut HashSet<ItemRef>,
) -> Vec<(String, Target)> {
    let mut named = Vec::new();
    let mut globbed = Vec::new();
    for id in render::list(&inner(docs.item(module))["items"]) {
        let Some(Target::Item(r)) = docs.resolve(&module.krate, id) else {
            continue;
        };
        let item = docs.item(&r);
        if !is_public(item) {
            continue;
        }
        if kind(item) != "use" {
            if let Some(name) = item["name"].as_str() {
                named.push((name.to_string(), Target::Item(r.clone())));
            }
            continue;
        }
        let u = inner(item);
        let Some(target) = docs.resolve(&r.krate, &u["id"]) else {
            continue;
        };
        if u["is_glob"].as_bool() == Some(true) {
            if let Target::Item(m) = target
                && kind(docs.item(&m)) == "module"
                && globs_seen.insert(m.clone())
            {
                globbed.extend(members(docs, &m, globs_seen));
            }
        } else if let Some(name) = u["name"].as_str() {
            named.push((name.to_string(), target));
        }
    }
    let taken: HashSet<(String, bool)> = named
        .iter()
        .map(|(n, t)| (n.clone(), is_macro(docs, t)))
        .collect();
    for (name, target) in globbed {
        if !taken.contains(&(name.clone(), is_macro(docs, &target))) {
            named.push((name, target));
        }
    }
    named
}

/// Whether a target lives in the macro namespace.
fn is_macro(docs: &Docs, t: &Target) -> bool {
    let k = match t {
        Target::Item(r) => kind(docs.item(r)).to_string(),
        Target::External { kind, .. } => kind.clone(),
    };
    k.starts_with("macro") || k.starts_with("proc")
}

/// A type's or trait's members: fields, variants, inherent methods and trait impls.
fn children(docs: &Docs, r: &ItemRef, item: &Value, path: &str, out: &mut Inventory) {
    let k = kind(item);
    let v = inner(item);
    let mut methods: BTreeMap<String, (String, Vec<String>, String)> = BTreeMap::new();
    let mut add = |key: String, kind: &str, sig: String, docs_text: String| {
        out.insert(
            key,
            Entry {
                kind: kind.to_string(),
                sig,
                docs: docs_text,
            },
        );
    };
    match k {
        "struct" | "union" => {
            for id in render::list(&v["kind"]["plain"]["fields"])
                .iter()
                .chain(render::list(&v["fields"]))
            {
                if let Some(Target::Item(f)) = docs.resolve(&r.krate, id) {
                    let field = docs.item(&f);
                    if is_public(field) {
                        let name = field["name"].as_str().unwrap_or("?");
                        add(
                            format!("{path}.{name}"),
                            "field",
                            render::item(field, "struct_field"),
                            String::new(),
                        );
                    }
                }
            }
        }
        "enum" => {
            for id in render::list(&v["variants"]) {
                if let Some(Target::Item(f)) = docs.resolve(&r.krate, id) {
                    let variant = docs.item(&f);
                    let name = variant["name"].as_str().unwrap_or("?");
                    add(
                        format!("{path}::{name}"),
                        "variant",
                        render::item(variant, "variant"),
                        String::new(),
                    );
                }
            }
        }
        "trait" => {
            for id in render::list(&v["items"]) {
                if let Some(Target::Item(f)) = docs.resolve(&r.krate, id) {
                    let member = docs.item(&f);
                    let mk = kind(member);
                    let name = member["name"].as_str().unwrap_or("?");
                    let docs_text = member["docs"].as_str().unwrap_or("").to_string();
                    let label = if mk == "function" { "trait method" } else { mk };
                    add(
                        format!("{path}::{name}"),
                        label,
                        render::item(member, mk),
                        docs_text,
                    );
                }
            }
            return;
        }
        _ => return,
    }
    for id in render::list(&v["impls"]) {
        let Some(Target::Item(i)) = docs.resolve(&r.krate, id) else {
            continue;
        };
        let imp = inner(docs.item(&i));
        if imp["is_synthetic"].as_bool() == Some(true) || !imp["blanket_impl"].is_null() {
            continue;
        }
        if !imp["trait"].is_null() {
            let negative = if imp["is_negative"].as_bool() == Some(true) {
                "!"
            } else {
                ""
            };
            add(
                format!("{path}: {negative}{}", render::path(&imp["trait"])),
                "impl",
                String::new(),
                String::new(),
            );
            continue;
        }
        let context = impl_context(item, imp);
        let self_type = render::ty(&imp["for"]);
        for mid in render::list(&imp["items"]) {
            let Some(Target::Item(m)) = docs.resolve(&i.krate, mid) else {
                continue;
            };
            let member = docs.item(&m);
            if !is_public(member) {
                continue;
            }
            let mk = kind(member);
            let name = member["name"].as_str().unwrap_or("?").to_string();
            let sig = replace_word(&render::item(member, mk), "Self", &self_type);
            let sig = format!("for {context}: {sig}");
            let label = if mk == "function" { "method" } else { mk };
            let slot = methods
                .entry(name)
                .or_insert_with(|| (label.to_string(), Vec::new(), String::new()));
            slot.1.push(sig);
            if slot.2.is_empty() {
                slot.2 = member["docs"].as_str().unwrap_or("").to_string();
            }
        }
    }
    for (name, (label, mut sigs, docs_text)) in methods {
        sigs.sort();
        sigs.dedup();
        add(
            format!("{path}::{name}"),
            &label,
            sigs.join(" | "),
            docs_text,
        );
    }
}

/// The self type of an inherent impl with its generic parameters replaced by their bounds and
/// omitted defaulted arguments filled in: `Tensor<_, {Numeric}>`, `Tensor<_, Float>`.
fn impl_context(type_item: &Value, imp: &Value) -> String {
    let mut param_bounds: HashMap<String, Vec<String>> = HashMap::new();
    for p in render::list(&imp["generics"]["params"]) {
        let name = p["name"].as_str().unwrap_or("?").to_string();
        let b = render::bounds(&p["kind"]["type"]["bounds"]);
        let entry = param_bounds.entry(name).or_default();
        if !b.is_empty() {
            entry.push(b);
        }
    }
    for w in render::list(&imp["generics"]["where_predicates"]) {
        let bp = &w["bound_predicate"];
        if let Some(name) = bp["type"]["generic"].as_str()
            && let Some(entry) = param_bounds.get_mut(name)
        {
            entry.push(render::bounds(&bp["bounds"]));
        }
    }
    let for_type = &imp["for"]["resolved_path"];
    let name = render::path(&serde_json::json!({ "path": for_type["path"], "args": null }));
    let mut args: Vec<String> = render::list(&for_type["args"]["angle_bracketed"]["args"])
        .iter()
        .filter_map(|a| {
            if let Some(t) = a.get("type") {
                let text = render::ty(t);
                Some(match param_bounds.get(&text) {
                    Some(b) if b.is_empty() => "_".to_string(),
                    Some(b) => format!("{{{}}}", b.join(" + ")),
                    None => text,
                })
            } else if a.get("const").is_some() {
                Some("_".to_string())
            } else {
                None
            }
        })
        .collect();
    let type_params: Vec<&Value> = render::list(&inner(type_item)["generics"]["params"])
        .iter()
        .filter(|p| p["kind"].get("lifetime").is_none())
        .collect();
    for p in type_params.iter().skip(args.len()) {
        let default = &p["kind"]["type"]["default"];
        args.push(if default.is_null() {
            "_".to_string()
        } else {
            render::ty(default)
        });
    }
    if args.is_empty() {
        name
    } else {
        format!("{name}<{}>", args.join(", "))
    }
}

/// `text` with each whole-word `word` replaced (`Self` written out as the impl's type, so that
/// `fn(self, Self)` and `fn(self, Tensor<D, Bool>)` compare equal).
fn replace_word(text: &str, word: &str, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(word) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + word.len()..].chars().next();
        let is_ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        out.push_str(&rest[..i]);
        out.push_str(if is_ident(before) || is_ident(after) {
            word
        } else {
            with
        });
        rest = &rest[i + word.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::replace_word;

    #[test]
    fn only_whole_words_are_replaced() {
        let sig = "fn(self, Self) -> <Self as X>::SelfType";
        assert_eq!(
            replace_word(sig, "Self", "Tensor<D, Bool>"),
            "fn(self, Tensor<D, Bool>) -> <Tensor<D, Bool> as X>::SelfType"
        );
    }
}
