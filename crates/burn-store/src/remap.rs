//! `KeyRemapper`: rewrites the keys of a file into module paths when loading (PyTorch names
//! into Burn ones), with literal rules or a closure — no regular expressions.

use std::sync::Arc;

/// One rewriting step.
#[derive(Clone)]
enum Rule {
    /// A leading `from` becomes `to`.
    Prefix { from: String, to: String },
    /// Every occurrence of `from` becomes `to`.
    Replace { from: String, to: String },
    /// Every dot-separated segment equal to `from` becomes `to`.
    Segment { from: String, to: String },
    /// The whole key `from` becomes `to`.
    Rename { from: String, to: String },
    /// Any rewriting.
    Custom(Arc<dyn Fn(&str) -> String + Send + Sync>),
}

impl Rule {
    fn apply(&self, key: String) -> String {
        match self {
            Rule::Prefix { from, to } => match key.strip_prefix(from.as_str()) {
                Some(rest) => format!("{to}{rest}"),
                None => key,
            },
            Rule::Replace { from, to } if !from.is_empty() => key.replace(from.as_str(), to),
            Rule::Replace { .. } => key,
            Rule::Segment { from, to } => key
                .split('.')
                .map(|segment| {
                    if segment == from {
                        to.as_str()
                    } else {
                        segment
                    }
                })
                .collect::<Vec<_>>()
                .join("."),
            Rule::Rename { from, to } if &key == from => to.clone(),
            Rule::Rename { .. } => key,
            Rule::Custom(f) => f(&key),
        }
    }
}

impl core::fmt::Debug for Rule {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Rule::Prefix { from, to } => write!(f, "prefix({from:?} -> {to:?})"),
            Rule::Replace { from, to } => write!(f, "replace({from:?} -> {to:?})"),
            Rule::Segment { from, to } => write!(f, "segment({from:?} -> {to:?})"),
            Rule::Rename { from, to } => write!(f, "rename({from:?} -> {to:?})"),
            Rule::Custom(_) => f.write_str("custom(..)"),
        }
    }
}

/// Rewrites the keys stored in a file into the module paths they load into. Rules run in the
/// order they were added, each on the result of the previous one; a key no rule changes is
/// kept as is.
///
/// ```
/// use burn_store::KeyRemapper;
///
/// // PyTorch's `model.encoder.layer.0.norm.gamma` → `encoder.layers.0.norm.weight`.
/// let remapper = KeyRemapper::new()
///     .prefix("model.", "")
///     .replace(".layer.", ".layers.")
///     .segment("gamma", "weight")
///     .segment("beta", "bias");
/// assert_eq!(
///     remapper.remap("model.encoder.layer.0.norm.gamma"),
///     "encoder.layers.0.norm.weight"
/// );
/// // Any other rewriting is a closure.
/// let upper = KeyRemapper::new().with_fn(|key| key.to_uppercase());
/// assert_eq!(upper.remap("fc.bias"), "FC.BIAS");
/// ```
#[derive(Clone, Debug, Default)]
pub struct KeyRemapper {
    rules: Vec<Rule>,
}

impl KeyRemapper {
    /// A remapper that keeps every key.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a rule: a key starting with `from` has that prefix replaced by `to`.
    pub fn prefix(self, from: impl Into<String>, to: impl Into<String>) -> Self {
        self.rule(Rule::Prefix {
            from: from.into(),
            to: to.into(),
        })
    }

    /// Adds a rule: every occurrence of the literal `from` in a key becomes `to`.
    pub fn replace(self, from: impl Into<String>, to: impl Into<String>) -> Self {
        self.rule(Rule::Replace {
            from: from.into(),
            to: to.into(),
        })
    }

    /// Adds a rule: every dot-separated segment of a key equal to `from` becomes `to`
    /// (`segment("gamma", "weight")` renames `norm.gamma` but not `norm.gamma_0`).
    pub fn segment(self, from: impl Into<String>, to: impl Into<String>) -> Self {
        self.rule(Rule::Segment {
            from: from.into(),
            to: to.into(),
        })
    }

    /// Adds a rule: the key `from`, exactly, becomes `to`.
    pub fn rename(self, from: impl Into<String>, to: impl Into<String>) -> Self {
        self.rule(Rule::Rename {
            from: from.into(),
            to: to.into(),
        })
    }

    /// Adds a rule computed by `f`.
    pub fn with_fn(self, f: impl Fn(&str) -> String + Send + Sync + 'static) -> Self {
        self.rule(Rule::Custom(Arc::new(f)))
    }

    /// Appends the rules of `other` after these.
    pub fn then(mut self, other: KeyRemapper) -> Self {
        self.rules.extend(other.rules);
        self
    }

    /// Whether the remapper has no rule (keeps every key).
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The module path the file key `key` loads into.
    pub fn remap(&self, key: &str) -> String {
        self.rules
            .iter()
            .fold(key.to_string(), |key, rule| rule.apply(key))
    }

    fn rule(mut self, rule: Rule) -> Self {
        self.rules.push(rule);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_apply_in_order_and_untouched_keys_stay() {
        let remapper = KeyRemapper::new()
            .prefix("a.", "b.")
            .prefix("b.", "c.")
            .rename("c.x", "y");
        assert_eq!(remapper.remap("a.x"), "y");
        assert_eq!(remapper.remap("b.z"), "c.z");
        assert_eq!(remapper.remap("q.a.x"), "q.a.x");
        assert!(KeyRemapper::new().is_empty());
        assert_eq!(KeyRemapper::new().remap("k"), "k");
    }

    #[test]
    fn segments_match_whole_names_only() {
        let remapper = KeyRemapper::new().segment("gamma", "weight");
        assert_eq!(
            remapper.remap("gamma.gamma_1.gamma"),
            "weight.gamma_1.weight"
        );
        let empty = KeyRemapper::new().replace("", "x");
        assert_eq!(empty.remap("abc"), "abc");
    }

    #[test]
    fn then_chains_remappers() {
        let remapper = KeyRemapper::new()
            .prefix("m.", "")
            .then(KeyRemapper::new().with_fn(|k| format!("{k}!")));
        assert_eq!(remapper.remap("m.w"), "w!");
        assert!(format!("{remapper:?}").contains("prefix"));
    }
}
