//! Argument checks of the configs: a panic naming the config and the rule broken.

use core::fmt;

/// Panics with `"{config}: {message}"` unless `ok`.
pub(crate) fn require(ok: bool, config: &str, message: fmt::Arguments<'_>) {
    if !ok {
        panic!("{config}: {message}");
    }
}

/// Checks that `value` (the field `name`) lies in `[0, 1)`, as betas and decay rates must.
pub(crate) fn unit_interval(config: &str, name: &str, value: f64) {
    require(
        (0.0..1.0).contains(&value),
        config,
        format_args!("`{name}` must be in [0, 1), got {value}"),
    );
}

/// Checks that `value` (the field `name`) is a finite number at least 0.
pub(crate) fn non_negative(config: &str, name: &str, value: f64) {
    require(
        value.is_finite() && value >= 0.0,
        config,
        format_args!("`{name}` must be a finite number at least 0, got {value}"),
    );
}
