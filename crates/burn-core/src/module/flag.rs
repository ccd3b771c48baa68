//! [`Flag`]: a boolean a module owns as control state (whether dropout is active, say), held
//! as a [`Param<Flag>`] so it has an identity in the module tree like a tensor parameter.

use super::base::{Module, ModuleMapper, ModuleVisitor};
use super::display::{Content, ModuleDisplay, ModuleDisplayDefault};
use super::param::{Param, ParamId, ParameterValue};

/// A module-owned boolean. As a [`Param<Flag>`] it is visited and mapped with the module:
/// [`valid`](Module::valid) disables it (remembering its configured state),
/// [`train`](Module::train) restores it, [`freeze`](Module::freeze) and
/// [`unfreeze`](Module::unfreeze) set it. Flags are configuration, not weights: records leave
/// them out, and they live on no device.
///
/// ```
/// use burn_core::module::{Flag, Module, Param};
///
/// let training = Param::<Flag>::from_bool(true);
/// assert!(training.is_enabled());
/// let inference = training.valid();
/// assert!(!inference.is_enabled());
/// assert!(inference.train().is_enabled());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Flag(bool);

impl Flag {
    /// A flag holding `value`.
    pub const fn new(value: bool) -> Self {
        Self(value)
    }

    /// Whether the flag is on.
    pub const fn is_enabled(&self) -> bool {
        self.0
    }

    /// The flag holding `value` instead.
    pub const fn with(self, value: bool) -> Self {
        Self(value)
    }
}

impl core::fmt::Display for Flag {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(if self.0 { "enabled" } else { "disabled" })
    }
}

impl ParameterValue for Flag {}

impl Param<Flag> {
    /// A flag parameter with a fresh id, configured (and currently) `value`.
    pub fn from_bool(value: bool) -> Self {
        Self::initialized(ParamId::new(), Flag::new(value)).configured(value)
    }

    /// The flag set to `value`, now and as its configured state.
    pub fn with_value(self, value: bool) -> Self {
        self.map(|flag| flag.with(value)).configured(value)
    }

    /// The validation form: disabled now, its configured state kept for
    /// [`train`](Module::train).
    pub(crate) fn disabled_for_validation(&self) -> Self {
        let configured = self.configured_state();
        Self::initialized(self.id, Flag::new(false)).configured(configured)
    }

    /// The training form: the configured state restored.
    pub(crate) fn restored_for_training(self) -> Self {
        let configured = self.configured_state();
        Self::initialized(self.id, Flag::new(configured)).configured(configured)
    }
}

impl core::fmt::Debug for Param<Flag> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Param")
            .field("id", &self.id)
            .field("flag", &self.val())
            .finish()
    }
}

impl core::fmt::Display for Param<Flag> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Display::fmt(&self.val(), f)
    }
}

impl Module for Param<Flag> {
    fn visit<Visitor: ModuleVisitor>(&self, visitor: &mut Visitor) {
        visitor.visit_flag(self);
    }

    fn map<Mapper: ModuleMapper>(self, mapper: &mut Mapper) -> Self {
        mapper.map_flag(self)
    }
}

impl ModuleDisplayDefault for Param<Flag> {
    fn content(&self, content: Content) -> Option<Content> {
        content.add_formatted(&self.val()).optional()
    }
}

impl ModuleDisplay for Param<Flag> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_disables_and_training_restores_the_configured_state() {
        let off = Param::<Flag>::from_bool(false);
        assert!(
            !off.valid().train().is_enabled(),
            "a disabled flag stays off"
        );
        let on = Param::<Flag>::from_bool(true);
        let id = on.id;
        let restored = on.valid().train();
        assert!(restored.is_enabled());
        assert_eq!(restored.id, id);
    }

    #[test]
    fn freeze_disables_for_good_and_unfreeze_enables() {
        let frozen = Param::<Flag>::from_bool(true).freeze();
        assert!(!frozen.is_enabled());
        assert!(
            !frozen.clone().train().is_enabled(),
            "train does not undo a freeze"
        );
        assert!(frozen.unfreeze().train().is_enabled());
    }

    #[test]
    fn flags_are_not_recorded() {
        assert!(Param::<Flag>::from_bool(true).into_record().is_empty());
    }
}
