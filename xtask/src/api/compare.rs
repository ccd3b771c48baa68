//! Burn 0.23.0-pre.1's inventory against ours: per facade module, how many of Burn's items exist
//! here with the same signature, how many differ, which are missing, and whether
//! `API_DIFFERENCES.md` names each one that is not the same.

use super::inventory::{Aliases, Entry, Inventory};
use std::collections::BTreeMap;
use std::fmt::Write;

/// How one of Burn's items stands here.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Status {
    Same,
    Differs,
    Missing,
}

/// One of Burn's items with its status and our signature when we have the item.
pub struct Row<'a> {
    pub key: &'a str,
    pub spec: &'a Entry,
    pub ours: Option<&'a Entry>,
    pub status: Status,
    pub group: String,
    pub listed: bool,
}

/// Compares every item of `spec` with the item at the same key in `ours`; a member of a type
/// (`Type::method`, `Type.field`, `Type: Trait`) is also looked for under the type's other
/// paths in Burn, so that a missing alias of a type does not hide its members.
pub fn compare<'a>(
    spec: &'a Inventory,
    aliases: &Aliases,
    ours: &'a Inventory,
    listed: &[String],
) -> Vec<Row<'a>> {
    spec.iter()
        .map(|(key, entry)| {
            let mine = ours.get(key).or_else(|| {
                let (owner, rest) = split_member(key)?;
                aliases
                    .get(owner)?
                    .iter()
                    .find_map(|a| ours.get(&format!("{a}{rest}")))
            });
            let status = match mine {
                None => Status::Missing,
                Some(m) if m.kind == entry.kind && m.sig == entry.sig => Status::Same,
                Some(_) => Status::Differs,
            };
            Row {
                key,
                spec: entry,
                ours: mine,
                status,
                group: group(key, entry),
                listed: is_listed(key, listed),
            }
        })
        .collect()
}

/// A member key split into its owner's path and the rest (`::name`, `.field`, `: Trait`).
fn split_member(key: &str) -> Option<(&str, &str)> {
    if let Some(i) = key.find(": ") {
        return Some((&key[..i], &key[i..]));
    }
    let i = key.rfind(['.', ':'])?;
    let i = if key[..i].ends_with(':') { i - 1 } else { i };
    Some((&key[..i], &key[i..]))
}

/// The table's row of an item: a facade module (`tensor`, `nn`, `tensor::module`), the
/// `Tensor` methods per kind they apply to (`Tensor<Float>`, `Tensor<{Numeric}>`), or Cargo
/// features.
pub fn group(key: &str, entry: &Entry) -> String {
    if key.starts_with("burn[") {
        return "Cargo features".to_string();
    }
    let owner = key.split(": ").next().unwrap_or(key);
    let owner = owner.split('.').next().unwrap_or(owner);
    let is_member = [
        "method",
        "trait method",
        "variant",
        "assoc_const",
        "assoc_type",
    ]
    .contains(&entry.kind.as_str());
    let owner = if is_member {
        owner.rsplit_once("::").map_or(owner, |(o, _)| o)
    } else {
        owner
    };
    let segments: Vec<&str> = owner.split("::").skip(1).collect();
    if entry.kind == "method" && segments.last() == Some(&"Tensor") {
        let context = entry.sig.split(": ").next().unwrap_or("");
        let kind = context
            .rsplit(", ")
            .next()
            .unwrap_or("?")
            .trim_end_matches('>');
        return format!("Tensor<{kind}> methods");
    }
    for sub in ["tensor::module", "tensor::activation", "tensor::loss"] {
        if owner
            .strip_prefix("burn::")
            .is_some_and(|rest| rest.starts_with(sub))
        {
            return sub.to_string();
        }
    }
    if segments.len() >= 2 {
        segments[0].to_string()
    } else {
        "(crate root)".to_string()
    }
}

/// Whether `API_DIFFERENCES.md` names `key`: the key itself in backticks, or a backticked
/// prefix ending in `::*` (`burn::cubecl::*`).
fn is_listed(key: &str, listed: &[String]) -> bool {
    listed.iter().any(|l| match l.strip_suffix('*') {
        Some(prefix) => key.starts_with(prefix),
        None => l == key,
    })
}

/// The backticked spans of a Markdown file (the items it names).
pub fn backticked(markdown: &str) -> Vec<String> {
    markdown
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// Counts per group: (Burn's items, same, differs, missing, unlisted).
pub fn table(rows: &[Row]) -> String {
    let mut groups: BTreeMap<&str, [usize; 5]> = BTreeMap::new();
    for row in rows {
        let counts = groups.entry(&row.group).or_default();
        counts[0] += 1;
        match row.status {
            Status::Same => counts[1] += 1,
            Status::Differs => counts[2] += 1,
            Status::Missing => counts[3] += 1,
        }
        if row.status != Status::Same && !row.listed {
            counts[4] += 1;
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| {:<28} | {:>6} | {:>6} | {:>7} | {:>7} | {:>7} | {:>8} |",
        "module", "Burn", "same", "differs", "missing", "% same", "unlisted"
    );
    let _ = writeln!(
        out,
        "|{:-<30}|{:->8}|{:->8}|{:->9}|{:->9}|{:->9}|{:->10}|",
        "", "", "", "", "", "", ""
    );
    let mut total = [0usize; 5];
    for (name, c) in &groups {
        let _ = writeln!(out, "{}", line(name, c));
        for (t, v) in total.iter_mut().zip(c) {
            *t += v;
        }
    }
    let _ = writeln!(out, "{}", line("all", &total));
    out
}

fn line(name: &str, c: &[usize; 5]) -> String {
    let pct = if c[0] == 0 {
        100.0
    } else {
        100.0 * c[1] as f64 / c[0] as f64
    };
    format!(
        "| {name:<28} | {:>6} | {:>6} | {:>7} | {:>7} | {pct:>6.1}% | {:>8} |",
        c[0], c[1], c[2], c[3], c[4]
    )
}

/// Every item that is not the same, by group, with both signatures.
pub fn report(rows: &[Row]) -> String {
    let mut out = String::from(
        "# API inventory: Burn 0.23.0-pre.1's items that differ here or are missing\n\n",
    );
    let _ = writeln!(out, "{}", table(rows));
    let mut current = "";
    let mut sorted: Vec<&Row> = rows.iter().filter(|r| r.status != Status::Same).collect();
    sorted.sort_by(|a, b| (&a.group, a.key).cmp(&(&b.group, b.key)));
    for row in sorted {
        if row.group != current {
            current = &row.group;
            let _ = writeln!(out, "\n## {current}\n");
        }
        let mark = if row.listed { " (listed)" } else { "" };
        match row.ours {
            None => {
                let _ = writeln!(
                    out,
                    "- missing{mark}: `{}` ({}) `{}`",
                    row.key, row.spec.kind, row.spec.sig
                );
            }
            Some(ours) => {
                let _ = writeln!(
                    out,
                    "- differs{mark}: `{}`\n  - Burn: {} `{}`\n  - here: {} `{}`",
                    row.key, row.spec.kind, row.spec.sig, ours.kind, ours.sig
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(kind: &str, sig: &str) -> Entry {
        Entry {
            kind: kind.into(),
            sig: sig.into(),
            docs: String::new(),
        }
    }

    #[test]
    fn tensor_methods_are_grouped_by_the_kind_they_apply_to() {
        let m = entry(
            "method",
            "for Tensor<_, {Numeric}>: fn<I: AsIndex>(self, I) -> Self",
        );
        assert_eq!(
            group("burn::Tensor::sum_dim", &m),
            "Tensor<{Numeric}> methods"
        );
        let f = entry("function", "fn()");
        assert_eq!(group("burn::tensor::module::conv2d", &f), "tensor::module");
        assert_eq!(group("burn::nn::Linear", &f), "nn");
        assert_eq!(group("burn::Tensor", &f), "(crate root)");
        let method = entry("method", "for BurnConfig: fn(&self)");
        assert_eq!(group("burn::BurnConfig::autodiff", &method), "(crate root)");
        assert_eq!(group("burn::nn::Linear::forward", &method), "nn");
        assert_eq!(group("burn[train]", &f), "Cargo features");
    }

    #[test]
    fn members_are_found_under_another_path_of_their_type() {
        assert_eq!(split_member("burn::a::T::m"), Some(("burn::a::T", "::m")));
        assert_eq!(split_member("burn::a::T.f"), Some(("burn::a::T", ".f")));
        assert_eq!(
            split_member("burn::a::T: Add<E>"),
            Some(("burn::a::T", ": Add<E>"))
        );
        let mut spec = Inventory::new();
        let mut ours = Inventory::new();
        spec.insert("burn::backend::T::m".into(), entry("method", "fn()"));
        ours.insert("burn::tensor::T::m".into(), entry("method", "fn()"));
        let mut aliases = Aliases::new();
        aliases.insert("burn::backend::T".into(), vec!["burn::tensor::T".into()]);
        let rows = compare(&spec, &aliases, &ours, &[]);
        assert_eq!(rows[0].status, Status::Same);
    }

    #[test]
    fn an_item_is_listed_by_its_path_or_a_wildcard() {
        let listed = backticked("## `burn::cubecl::*`\n- `burn::Tensor::cov`: reason");
        assert!(is_listed("burn::cubecl::Runtime", &listed));
        assert!(is_listed("burn::Tensor::cov", &listed));
        assert!(!is_listed("burn::Tensor::median", &listed));
    }

    #[test]
    fn statuses_follow_kind_and_signature() {
        let mut spec = Inventory::new();
        let mut ours = Inventory::new();
        spec.insert("burn::a".into(), entry("function", "fn()"));
        spec.insert("burn::b".into(), entry("function", "fn(usize)"));
        spec.insert("burn::c".into(), entry("function", "fn()"));
        ours.insert("burn::a".into(), entry("function", "fn()"));
        ours.insert("burn::b".into(), entry("function", "fn(I)"));
        let rows = compare(&spec, &Aliases::new(), &ours, &[]);
        let statuses: Vec<Status> = rows.iter().map(|r| r.status).collect();
        assert_eq!(statuses, [Status::Same, Status::Differs, Status::Missing]);
        assert!(table(&rows).contains("| all"));
    }
}
