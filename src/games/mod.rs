//! The registry: the only place that knows every ruleset.
pub mod rithmomachia;
