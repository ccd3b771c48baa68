//! [`ParamGroup`]: a selection of a module's parameters (by id, path, path fragments or
//! regular expressions), for freezing, quantizing or recording a part of a module.

use super::base::{Module, ModuleVisitor};
use super::flag::Flag;
use super::param::{Param, ParamId};
use burn_tensor::{Bool, Int, Tensor};
use regex::Regex;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Why a [`ParamGroup`] could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamGroupError {
    /// A pattern is not a valid regular expression (the message says where).
    InvalidPatternError(String),
}

impl core::fmt::Display for ParamGroupError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::InvalidPatternError(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for ParamGroupError {}

/// A regular expression that serializes as its source text.
#[derive(Clone, Debug)]
struct Pattern(Regex);

impl Serialize for Pattern {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.as_str())
    }
}

impl<'de> Deserialize<'de> for Pattern {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let source = String::deserialize(deserializer)?;
        Regex::new(&source)
            .map(Pattern)
            .map_err(serde::de::Error::custom)
    }
}

/// What a group's parameters have in common.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum Matcher {
    /// Every parameter.
    All,
    /// These ids.
    Ids(Vec<ParamId>),
    /// A path equal to one of these.
    Paths(Vec<String>),
    /// A path containing every one of these fragments.
    Fragments(Vec<String>),
    /// A path matching every one of these expressions.
    Patterns(Vec<Pattern>),
    /// Any of these.
    Any(Vec<Matcher>),
}

impl Matcher {
    fn matches(&self, id: &ParamId, path: Option<&str>) -> bool {
        match self {
            Self::All => true,
            Self::Ids(ids) => ids.contains(id),
            Self::Paths(paths) => path.is_some_and(|p| paths.iter().any(|q| q == p)),
            Self::Fragments(parts) => path.is_some_and(|p| parts.iter().all(|q| p.contains(q))),
            Self::Patterns(patterns) => {
                path.is_some_and(|p| patterns.iter().all(|r| r.0.is_match(p)))
            }
            Self::Any(matchers) => matchers.iter().any(|m| m.matches(id, path)),
        }
    }

    /// Either of `self` and `other`, flattened (`All` absorbs everything).
    fn or(self, other: &Self) -> Self {
        match (self, other) {
            (Self::All, _) | (_, Self::All) => Self::All,
            (Self::Any(mut left), Self::Any(right)) => {
                left.extend(right.iter().cloned());
                Self::Any(left)
            }
            (Self::Any(mut left), right) => {
                left.push(right.clone());
                Self::Any(left)
            }
            (left, Self::Any(right)) => {
                let mut all = vec![left];
                all.extend(right.iter().cloned());
                Self::Any(all)
            }
            (left, right) => Self::Any(vec![left, right.clone()]),
        }
    }
}

fn compile(pattern: &str) -> Result<Pattern, ParamGroupError> {
    Regex::new(pattern).map(Pattern).map_err(|e| {
        ParamGroupError::InvalidPatternError(format!("Invalid regex pattern `{pattern}`: {e}"))
    })
}

/// A group of a module's parameters, matched by [`ParamId`] or by path (field names joined
/// with `.`, as in records: `"encoder.0.weight"`). Used by
/// [`Module::freeze_group`], [`Module::set_require_grad_group`],
/// [`Module::into_record_group`] and the quantizer.
///
/// ```
/// use burn_core::module::{ParamGroup, ParamId};
///
/// let id = ParamId::new();
/// let encoder = ParamGroup::from_predicate("encoder");
/// assert!(encoder.matches(&id, Some("encoder.0.weight")));
/// let weights = ParamGroup::from_regex(r"\.weight$").unwrap();
/// let encoder_biases = encoder.exclude(weights);
/// assert!(encoder_biases.matches(&id, Some("encoder.0.bias")));
/// assert!(!encoder_biases.matches(&id, Some("encoder.0.weight")));
/// ```
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ParamGroup {
    include: Matcher,
    exclude: Option<Matcher>,
}

impl ParamGroup {
    fn of(include: Matcher) -> Self {
        Self {
            include,
            exclude: None,
        }
    }

    /// Whether the parameter `id` at `path` (when known) belongs to the group.
    pub fn matches(&self, id: &ParamId, path: Option<&str>) -> bool {
        self.include.matches(id, path)
            && !self
                .exclude
                .as_ref()
                .is_some_and(|exclude| exclude.matches(id, path))
    }

    /// Every parameter (and flag) of `module`, by id.
    pub fn ids_from_module<M: Module>(module: M) -> Self {
        let mut collector = IdCollector(Vec::new(), true);
        module.visit(&mut collector);
        Self::of(Matcher::Ids(collector.0))
    }

    /// The parameter at exactly `path`.
    pub fn from_path(path: impl Into<String>) -> Self {
        Self::from_paths(vec![path])
    }

    /// The parameters at exactly these paths.
    pub fn from_paths(paths: Vec<impl Into<String>>) -> Self {
        Self::of(Matcher::Paths(paths.into_iter().map(Into::into).collect()))
    }

    /// The parameters whose path contains `fragment`.
    pub fn from_predicate(fragment: impl Into<String>) -> Self {
        Self::from_predicates(vec![fragment])
    }

    /// The parameters whose path contains every one of `fragments`.
    pub fn from_predicates(fragments: Vec<impl Into<String>>) -> Self {
        Self::of(Matcher::Fragments(
            fragments.into_iter().map(Into::into).collect(),
        ))
    }

    /// The parameters whose path contains any of `fragments` (none when empty).
    pub fn from_any_predicates(fragments: Vec<impl Into<String>>) -> Self {
        Self::of(Matcher::Any(
            fragments
                .into_iter()
                .map(|f| Matcher::Fragments(vec![f.into()]))
                .collect(),
        ))
    }

    /// The parameters whose path matches the regular expression `pattern`.
    pub fn from_regex<S: AsRef<str>>(pattern: S) -> Result<Self, ParamGroupError> {
        Self::from_regexes(vec![pattern])
    }

    /// The parameters whose path matches every one of `patterns`.
    pub fn from_regexes<S: AsRef<str>>(patterns: Vec<S>) -> Result<Self, ParamGroupError> {
        let patterns = patterns
            .iter()
            .map(|p| compile(p.as_ref()))
            .collect::<Result<_, _>>()?;
        Ok(Self::of(Matcher::Patterns(patterns)))
    }

    /// The parameters whose path matches any of `patterns` (none when empty).
    pub fn from_any_regexes<S: AsRef<str>>(patterns: Vec<S>) -> Result<Self, ParamGroupError> {
        let matchers = patterns
            .iter()
            .map(|p| compile(p.as_ref()).map(|p| Matcher::Patterns(vec![p])))
            .collect::<Result<_, _>>()?;
        Ok(Self::of(Matcher::Any(matchers)))
    }

    /// Every parameter.
    pub fn all() -> Self {
        Self::of(Matcher::All)
    }

    /// The parameters with these ids.
    pub fn from_ids(ids: Vec<ParamId>) -> Self {
        Self::of(Matcher::Ids(ids))
    }

    /// The parameters of either group (exclusions are dropped).
    pub fn fuse(self, other: &Self) -> Self {
        Self::of(self.include.or(&other.include))
    }

    /// This group without the parameters of `group`.
    pub fn exclude(mut self, group: Self) -> Self {
        self.exclude = Some(match self.exclude {
            Some(excluded) => excluded.or(&group.include),
            None => group.include,
        });
        self
    }
}

/// Collects the ids of every tensor parameter, and of flags when `.1` is set.
#[derive(Default)]
struct IdCollector(Vec<ParamId>, bool);

impl ModuleVisitor for IdCollector {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.0.push(param.id);
    }
    fn visit_int<const D: usize>(&mut self, param: &Param<Tensor<D, Int>>) {
        self.0.push(param.id);
    }
    fn visit_bool<const D: usize>(&mut self, param: &Param<Tensor<D, Bool>>) {
        self.0.push(param.id);
    }
    fn visit_flag(&mut self, flag: &Param<Flag>) {
        if self.1 {
            self.0.push(flag.id);
        }
    }
}

/// The ids of a module's tensor parameters, in visiting order.
pub fn list_param_ids<M: Module>(module: &M) -> Vec<ParamId> {
    let mut collector = IdCollector::default();
    module.visit(&mut collector);
    collector.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_fragments_and_patterns_select_as_documented() {
        let id = ParamId::new();
        let path = Some("encoder.layers.1.weight");
        assert!(ParamGroup::from_path("encoder.layers.1.weight").matches(&id, path));
        assert!(!ParamGroup::from_path("encoder").matches(&id, path));
        assert!(ParamGroup::from_predicates(vec!["encoder", "weight"]).matches(&id, path));
        assert!(!ParamGroup::from_predicates(vec!["encoder", "bias"]).matches(&id, path));
        assert!(ParamGroup::from_any_predicates(vec!["decoder", "weight"]).matches(&id, path));
        assert!(!ParamGroup::from_any_predicates(Vec::<String>::new()).matches(&id, path));
        assert!(
            ParamGroup::from_regex(r"layers\.\d+\.weight$")
                .unwrap()
                .matches(&id, path)
        );
        assert!(!ParamGroup::from_path("x").matches(&id, None));
    }

    #[test]
    fn ids_fuse_and_exclude_combine() {
        let (a, b) = (ParamId::new(), ParamId::new());
        let group = ParamGroup::from_ids(vec![a]).fuse(&ParamGroup::from_ids(vec![b]));
        assert!(group.matches(&a, None) && group.matches(&b, None));
        let without_b = ParamGroup::all().exclude(ParamGroup::from_ids(vec![b]));
        assert!(without_b.matches(&a, None) && !without_b.matches(&b, None));
    }

    #[test]
    fn a_bad_pattern_is_an_error_naming_it() {
        let ParamGroupError::InvalidPatternError(message) =
            ParamGroup::from_regex("(unclosed").unwrap_err();
        assert!(message.contains("(unclosed"), "{message}");
    }

    #[test]
    fn a_group_serializes_with_its_patterns() {
        let group = ParamGroup::from_regex("^head")
            .unwrap()
            .exclude(ParamGroup::from_path("head.b"));
        let json = serde_json::to_string(&group).unwrap();
        let back: ParamGroup = serde_json::from_str(&json).unwrap();
        let id = ParamId::new();
        assert!(back.matches(&id, Some("head.w")));
        assert!(!back.matches(&id, Some("head.b")));
    }
}
