//! How modules print: [`ModuleDisplay`] (what `#[derive(Module)]` gives `Display` with) writes
//! a module as its type and its attributes, each sub-module nested and indented, parameters as
//! `ParamTensor {rank, shape, kind}`, and the parameter count:
//!
//! ```text
//! Mlp {
//!   hidden: Linear {
//!     weight: ParamTensor {rank: 2, shape: [4, 3], kind: float}
//!     bias: ParamTensor {rank: 1, shape: [3], kind: float}
//!     params: 15
//!   }
//!   params: 23
//! }
//! ```
//!
//! A module customizes its line by implementing [`ModuleDisplay`] itself (with
//! `#[module(custom_display)]` on the type, so the derive does not): `custom_content` lists the
//! attributes worth showing (`content.add("d_input", &self.d_input)`), `custom_settings` the
//! layout.

use core::fmt::Write;

/// The content every module can be shown with (written by `#[derive(Module)]`; the
/// [`ModuleDisplay`] methods refine it).
pub trait ModuleDisplayDefault {
    /// `content` with this module's attributes added, or `None` when it has nothing to show.
    fn content(&self, content: Content) -> Option<Content>;

    /// The number of parameter elements shown as `params: N` (0 hides the line).
    fn num_params(&self) -> usize {
        0
    }
}

/// How a module is written by `Display`: [`format`](ModuleDisplay::format) lays out the
/// content; override [`custom_content`](ModuleDisplay::custom_content) and
/// [`custom_settings`](ModuleDisplay::custom_settings) to change what shows.
pub trait ModuleDisplay: ModuleDisplayDefault {
    /// The module written with `settings` (merged over its own
    /// [`custom_settings`](ModuleDisplay::custom_settings)).
    fn format(&self, settings: DisplaySettings) -> String {
        let settings = match self.custom_settings() {
            Some(custom) => custom.inherit(settings),
            None => settings,
        };
        let indent = " ".repeat(settings.level * settings.indentation_size());
        let closing_indent = " ".repeat((settings.level - 1) * settings.indentation_size());
        let inner = settings.clone().level_up();
        let type_name = extract_type_name::<Self>();
        let fresh = || Content::new(inner.clone());
        let content = if settings.show_all_attributes() {
            self.content(fresh())
        } else {
            self.custom_content(fresh())
                .or_else(|| self.content(fresh()))
        }
        .unwrap_or_else(fresh);

        if let Some(item) = content.single_item {
            return item;
        }
        let top = content
            .top_level_type
            .unwrap_or_else(|| type_name.to_string());
        if content.attributes.is_empty() {
            return top;
        }
        let num_params = self.num_params();
        let show_params = settings.show_num_parameters() && num_params > 0;
        let multiline = settings.new_line_after_attribute();
        let mut out = String::new();
        let _ = write!(out, "{top} {{");
        let mut lines: Vec<String> = content
            .attributes
            .iter()
            .map(|a| format!("{}: {}", a.name, a.value))
            .collect();
        if show_params {
            lines.push(format!("params: {num_params}"));
        }
        if multiline {
            for line in &lines {
                let _ = write!(out, "\n{indent}{line}");
            }
            let _ = write!(out, "\n{closing_indent}}}");
        } else {
            let _ = write!(out, "{}}}", lines.join(", "));
        }
        out
    }

    /// The layout this module prefers (`None`: the caller's).
    fn custom_settings(&self) -> Option<DisplaySettings> {
        None
    }

    /// The attributes this module shows instead of the derived ones (`None`: the derived).
    fn custom_content(&self, _content: Content) -> Option<Content> {
        None
    }
}

/// How a module is laid out; unset options take their defaults (parameter ids hidden,
/// custom content used, parameter counts shown, one attribute per line, two-space indents).
#[derive(Debug, Clone)]
pub struct DisplaySettings {
    show_param_id: Option<bool>,
    show_all_attributes: Option<bool>,
    show_num_parameters: Option<bool>,
    new_line_after_attribute: Option<bool>,
    indentation_size: Option<usize>,
    level: usize,
}

impl Default for DisplaySettings {
    fn default() -> Self {
        Self {
            show_param_id: None,
            show_all_attributes: None,
            show_num_parameters: None,
            new_line_after_attribute: None,
            indentation_size: None,
            level: 1,
        }
    }
}

impl DisplaySettings {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether parameters show their [`ParamId`](super::ParamId).
    pub fn with_show_param_id(mut self, show: bool) -> Self {
        self.show_param_id = Some(show);
        self
    }

    /// Whether every derived attribute shows, ignoring custom content.
    pub fn with_show_all_attributes(mut self, show: bool) -> Self {
        self.show_all_attributes = Some(show);
        self
    }

    /// Whether modules end with their `params: N` count.
    pub fn with_show_num_parameters(mut self, show: bool) -> Self {
        self.show_num_parameters = Some(show);
        self
    }

    /// Whether each attribute takes a line of its own (else `Type {a: 1, b: 2}`).
    pub fn with_new_line_after_attribute(mut self, new_line: bool) -> Self {
        self.new_line_after_attribute = Some(new_line);
        self
    }

    /// The spaces per nesting level.
    pub fn with_indentation_size(mut self, size: usize) -> Self {
        self.indentation_size = Some(size);
        self
    }

    /// These settings with every option `top` sets taken from `top`, and `top`'s level.
    pub fn inherit(self, top: Self) -> Self {
        Self {
            show_param_id: top.show_param_id.or(self.show_param_id),
            show_all_attributes: top.show_all_attributes.or(self.show_all_attributes),
            show_num_parameters: top.show_num_parameters.or(self.show_num_parameters),
            new_line_after_attribute: top
                .new_line_after_attribute
                .or(self.new_line_after_attribute),
            indentation_size: top.indentation_size.or(self.indentation_size),
            level: top.level,
        }
    }

    /// `Some(self)`, for `custom_settings`.
    pub fn optional(self) -> Option<Self> {
        Some(self)
    }

    /// The settings one nesting level deeper.
    pub fn level_up(mut self) -> Self {
        self.level += 1;
        self
    }

    /// Whether parameters show their id (default: no).
    pub fn show_param_id(&self) -> bool {
        self.show_param_id.unwrap_or(false)
    }

    /// Whether every derived attribute shows (default: no, custom content wins).
    pub fn show_all_attributes(&self) -> bool {
        self.show_all_attributes.unwrap_or(false)
    }

    /// Whether parameter counts show (default: yes).
    pub fn show_num_parameters(&self) -> bool {
        self.show_num_parameters.unwrap_or(true)
    }

    /// Whether each attribute takes a line (default: yes).
    pub fn new_line_after_attribute(&self) -> bool {
        self.new_line_after_attribute.unwrap_or(true)
    }

    /// The spaces per level (default: 2).
    pub fn indentation_size(&self) -> usize {
        self.indentation_size.unwrap_or(2)
    }
}

/// What a module shows: named attributes, or a single item written as it is.
#[derive(Clone, Debug)]
pub struct Content {
    /// The attributes, in order.
    pub attributes: Vec<Attribute>,
    /// A text shown instead of `Type { … }` (a parameter's description, a constant).
    pub single_item: Option<String>,
    /// The settings attributes are written with.
    pub display_settings: DisplaySettings,
    /// The type name shown (default: the Rust type's name).
    pub top_level_type: Option<String>,
}

impl Content {
    /// Empty content written with `display_settings`.
    pub fn new(display_settings: DisplaySettings) -> Self {
        Self {
            attributes: Vec::new(),
            single_item: None,
            display_settings,
            top_level_type: None,
        }
    }

    fn push(mut self, name: &str, value: String, ty: &str) -> Self {
        assert!(
            self.single_item.is_none(),
            "Content::add: `{name}` cannot be added to content holding a single item"
        );
        self.attributes.push(Attribute {
            name: name.to_string(),
            value,
            ty: ty.to_string(),
        });
        self
    }

    /// Adds the attribute `name` written by its own [`ModuleDisplay`].
    pub fn add<T: ModuleDisplay + ?Sized>(self, name: &str, value: &T) -> Self {
        let text = value.format(self.display_settings.clone());
        self.push(name, text, core::any::type_name::<T>())
    }

    /// Adds the attribute `name` written with `Debug` (for values that are not modules).
    pub fn add_debug_attribute<T: core::fmt::Debug>(self, name: &str, value: &T) -> Self {
        self.push(name, format!("{value:?}"), core::any::type_name::<T>())
    }

    /// Shows `value` (written by its [`ModuleDisplay`]) as the whole content.
    pub fn add_single<T: ModuleDisplay + ?Sized>(mut self, value: &T) -> Self {
        assert!(
            self.attributes.is_empty(),
            "Content::add_single: the content already holds attributes"
        );
        self.single_item = Some(value.format(self.display_settings.clone()));
        self
    }

    /// Shows `value` (written with `Display`) as the whole content.
    pub fn add_formatted<T: core::fmt::Display>(mut self, value: &T) -> Self {
        assert!(
            self.attributes.is_empty(),
            "Content::add_formatted: the content already holds attributes"
        );
        self.single_item = Some(value.to_string());
        self
    }

    /// `None` when the content shows nothing, else `Some(self)`.
    pub fn optional(self) -> Option<Self> {
        let empty = self.attributes.is_empty()
            && self.single_item.is_none()
            && self.top_level_type.is_none();
        (!empty).then_some(self)
    }

    /// Shows `ty` as the type name.
    pub fn set_top_level_type(mut self, ty: &str) -> Self {
        self.top_level_type = Some(ty.to_string());
        self
    }
}

/// One shown attribute.
#[derive(Clone, Debug)]
pub struct Attribute {
    /// The field's name.
    pub name: String,
    /// The value as written.
    pub value: String,
    /// The Rust type of the value.
    pub ty: String,
}

/// The last path segment of `T`'s name, without generic arguments (`burn::nn::Linear<…>` →
/// `Linear`).
pub fn extract_type_name<T: ?Sized>() -> &'static str {
    let name = core::any::type_name::<T>();
    let name = &name[..name.find('<').unwrap_or(name.len())];
    name.rsplit("::").next().unwrap_or(name)
}

/// `ModuleDisplay` for values shown as they print with `Display` (numbers, strings).
macro_rules! display_as_text {
    ($($ty:ty),* $(,)?) => {$(
        impl ModuleDisplayDefault for $ty {
            fn content(&self, content: Content) -> Option<Content> {
                content.add_formatted(&self).optional()
            }
        }
        impl ModuleDisplay for $ty {}
    )*};
}

// The module constants (numbers, strings) get theirs from `empty!`.
display_as_text!(str);

#[cfg(test)]
mod tests {
    use super::*;

    struct Pair;

    impl ModuleDisplayDefault for Pair {
        fn content(&self, content: Content) -> Option<Content> {
            content.add("a", &1usize).add("b", &2.5f64).optional()
        }
        fn num_params(&self) -> usize {
            7
        }
    }

    impl ModuleDisplay for Pair {}

    #[test]
    fn attributes_go_one_per_line_with_the_count_last() {
        assert_eq!(
            Pair.format(DisplaySettings::new()),
            "Pair {\n  a: 1\n  b: 2.5\n  params: 7\n}"
        );
        let inline = DisplaySettings::new()
            .with_new_line_after_attribute(false)
            .with_show_num_parameters(false);
        assert_eq!(Pair.format(inline), "Pair {a: 1, b: 2.5}");
    }

    #[test]
    fn type_names_lose_their_path_and_generics() {
        assert_eq!(extract_type_name::<Vec<u8>>(), "Vec");
        assert_eq!(extract_type_name::<Pair>(), "Pair");
    }
}
