//! Graph capture: a closure recorded once replays with new inputs to exactly the numbers eager
//! execution gives (same operations, same order, same backend), on any device, with gradients
//! on an autodiff device; what cannot be recorded is a typed error.

mod errors;
mod replay;
