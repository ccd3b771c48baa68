//! `define_dispatch!`: what the catalog expands into.

/// Expands catalog entries (`$ [Variant, path::Backend, "feature", constructor, index] …`, as
/// handed over by
/// `burn_backend_extension::backend_catalog!`) into, in the calling module:
///
/// - `Dispatch`, the routing backend type;
/// - `DispatchDevice` and `DispatchTensor`, one variant per entry, each behind its feature;
/// - `BackendEntry`, implemented by one marker type per entry in `entries`, to wrap and unwrap
///   that variant;
/// - one constructor per entry (`DispatchDevice::flex()`);
/// - `dispatch!(tensor_ref, E, B => body)` and `dispatch_device!(device_ref, E, B => body)`,
///   which run `body` with `E` bound to the entry and `B` to the backend of the variant.
///
/// After the entries, `; recording [Variant, path::Backend, adopt, base]` adds the recording
/// entry (graph capture, `crate::capture`): a variant and an entry like the others, but not a
/// device of its own (no constructor, not in `compiled_defaults`); `adopt` turns a tensor of
/// another variant into a tensor of the recording (a constant of the captured graph) where the
/// other entries would panic, `base` gives the device a recording runs for.
#[macro_export]
#[doc(hidden)]
macro_rules! define_dispatch {
    (@entry [$variant:ident, $backend:path, $index:literal] |$other:ident| $fallback:expr) => {
        impl BackendEntry for entries::$variant {
            type Backend = $backend;
            const NAME: &'static str = stringify!($variant);
            const INDEX: u16 = $index;

            #[inline]
            fn wrap(tensor: $crate::BackendTensor<$backend>) -> DispatchTensor {
                DispatchTensor::$variant(tensor)
            }
            #[inline]
            fn unwrap(tensor: DispatchTensor) -> $crate::BackendTensor<$backend> {
                #[allow(unreachable_patterns)]
                match tensor {
                    DispatchTensor::$variant(tensor) => tensor,
                    $other => $fallback,
                }
            }
            #[inline]
            fn unwrap_ref(tensor: &DispatchTensor) -> &$crate::BackendTensor<$backend> {
                #[allow(unreachable_patterns)]
                match tensor {
                    DispatchTensor::$variant(tensor) => tensor,
                    other => panic!(
                        "expected a tensor on a {} device, got one on a {} device",
                        Self::NAME,
                        other.backend_name()
                    ),
                }
            }
            fn wrap_device(
                device: <$backend as $crate::__private::BackendTypes>::Device,
            ) -> DispatchDevice {
                DispatchDevice::$variant(device)
            }
            fn device(
                device: &DispatchDevice,
            ) -> <$backend as $crate::__private::BackendTypes>::Device {
                #[allow(unreachable_patterns)]
                match device.base() {
                    DispatchDevice::$variant(device) => device.clone(),
                    other => panic!("expected a {} device, got {other:?}", Self::NAME),
                }
            }
            fn wrap_graph(
                graph: <$backend as $crate::__private::BackendTypes>::GraphPrimitive,
            ) -> DispatchGraph {
                DispatchGraph::$variant(graph)
            }
            fn graph(
                graph: &DispatchGraph,
            ) -> Option<&<$backend as $crate::__private::BackendTypes>::GraphPrimitive> {
                #[allow(unreachable_patterns)]
                match graph {
                    DispatchGraph::$variant(graph) => Some(graph),
                    _ => None,
                }
            }
        }
    };
    ($d:tt $([$variant:ident, $backend:path, $feature:literal, $constructor:ident, $index:literal])*
     $(; recording [$rvariant:ident, $rbackend:path, $radopt:path, $rbase:path])?) => {
        /// The backend the public API runs on: routes each operation to the backend of the
        /// tensor's (or device's) catalog variant.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Dispatch;

        /// A device of any compiled backend of the catalog, or such a device with autodiff.
        ///
        /// Equality and hashing look at the hardware only: a device and its autodiff view
        /// compare equal (they share settings, and their tensors may be combined).
        #[derive(Clone, Debug)]
        pub enum DispatchDevice {
            $(
                #[cfg(feature = $feature)]
                #[doc = concat!("A device of the `", stringify!($variant), "` backend.")]
                $variant(<$backend as $crate::__private::BackendTypes>::Device),
            )*
            /// A catalog device whose float tensors can be tracked for autodiff.
            #[cfg(feature = "autodiff")]
            Autodiff(AutodiffDevice),
            $(
                /// The device of a graph capture in progress: its operations are recorded.
                $rvariant(<$rbackend as $crate::__private::BackendTypes>::Device),
            )?
        }

        impl PartialEq for DispatchDevice {
            fn eq(&self, other: &Self) -> bool {
                #[allow(unreachable_patterns)]
                match (self.base(), other.base()) {
                    $(
                        #[cfg(feature = $feature)]
                        (DispatchDevice::$variant(a), DispatchDevice::$variant(b)) => a == b,
                    )*
                    $( (DispatchDevice::$rvariant(a), DispatchDevice::$rvariant(b)) => a == b, )?
                    _ => false,
                }
            }
        }

        impl Eq for DispatchDevice {}

        impl core::hash::Hash for DispatchDevice {
            fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
                #[allow(unreachable_patterns)]
                match self.base() {
                    $(
                        #[cfg(feature = $feature)]
                        DispatchDevice::$variant(device) => {
                            stringify!($variant).hash(state);
                            device.hash(state);
                        }
                    )*
                    $(
                        DispatchDevice::$rvariant(device) => {
                            stringify!($rvariant).hash(state);
                            device.hash(state);
                        }
                    )?
                    _ => unreachable!("base() never returns an autodiff device"),
                }
            }
        }

        /// A tensor of any compiled backend of the catalog.
        ///
        /// Variants differ in size (a Cube tensor carries its compute client and buffer
        /// handle); boxing the larger ones would add an allocation to every operation.
        #[derive(Clone, Debug)]
        #[allow(clippy::large_enum_variant)]
        pub enum DispatchTensor {
            $(
                #[cfg(feature = $feature)]
                #[doc = concat!("A tensor of the `", stringify!($variant), "` backend.")]
                $variant($crate::BackendTensor<$backend>),
            )*
            $(
                /// A tensor of a graph capture in progress (an id in its recording).
                $rvariant($crate::BackendTensor<$rbackend>),
            )?
        }

        /// A graph captured by the backend of one entry (see `Backend::graph_stop_capture`).
        #[derive(Clone, Debug)]
        pub enum DispatchGraph {
            $(
                #[cfg(feature = $feature)]
                #[doc = concat!("A graph of the `", stringify!($variant), "` backend.")]
                $variant(<$backend as $crate::__private::BackendTypes>::GraphPrimitive),
            )*
            $(
                /// The recording entry's (it captures no launches).
                $rvariant(<$rbackend as $crate::__private::BackendTypes>::GraphPrimitive),
            )?
        }

        /// Wraps and unwraps the variant of one catalog entry.
        pub trait BackendEntry {
            /// The entry's backend.
            type Backend: $crate::__private::Backend;
            /// The entry's variant name.
            const NAME: &'static str;
            /// The entry's position in the catalog; it keeps device ids of entries apart.
            const INDEX: u16;

            /// The tensor as this entry's variant.
            fn wrap(tensor: $crate::BackendTensor<Self::Backend>) -> DispatchTensor;
            /// The tensor of this entry's variant; panics for another backend.
            fn unwrap(tensor: DispatchTensor) -> $crate::BackendTensor<Self::Backend>;
            /// A reference to the tensor of this entry's variant; panics for another backend.
            fn unwrap_ref(tensor: &DispatchTensor) -> &$crate::BackendTensor<Self::Backend>;
            /// The device as this entry's variant.
            fn wrap_device(
                device: <Self::Backend as $crate::__private::BackendTypes>::Device,
            ) -> DispatchDevice;
            /// The device of this entry's variant; panics for another backend.
            fn device(
                device: &DispatchDevice,
            ) -> <Self::Backend as $crate::__private::BackendTypes>::Device;
            /// A graph of this entry's backend as a dispatch graph.
            fn wrap_graph(
                graph: <Self::Backend as $crate::__private::BackendTypes>::GraphPrimitive,
            ) -> DispatchGraph;
            /// The graph, when this entry's backend captured it.
            fn graph(
                graph: &DispatchGraph,
            ) -> Option<&<Self::Backend as $crate::__private::BackendTypes>::GraphPrimitive>;

            /// The float primitive of a tensor of this entry.
            fn float(
                tensor: DispatchTensor,
            ) -> $crate::__private::FloatTensor<Self::Backend> {
                Self::unwrap(tensor).into_float()
            }
            /// The int primitive of a tensor of this entry.
            fn int(tensor: DispatchTensor) -> $crate::__private::IntTensor<Self::Backend> {
                Self::unwrap(tensor).into_int()
            }
            /// The bool primitive of a tensor of this entry.
            fn bool(tensor: DispatchTensor) -> $crate::__private::BoolTensor<Self::Backend> {
                Self::unwrap(tensor).into_bool()
            }
            /// The quantized primitive of a tensor of this entry.
            fn quantized(
                tensor: DispatchTensor,
            ) -> $crate::__private::QuantizedTensor<Self::Backend> {
                Self::unwrap(tensor).into_quantized()
            }
            /// A quantized primitive as a dispatch tensor.
            fn wrap_quantized(
                tensor: $crate::__private::QuantizedTensor<Self::Backend>,
            ) -> DispatchTensor {
                Self::wrap($crate::BackendTensor::Quantized(Box::new(tensor)))
            }
            /// A float result that may be quantized, as a dispatch tensor.
            fn wrap_primitive(
                tensor: $crate::__private::TensorPrimitive<Self::Backend>,
            ) -> DispatchTensor {
                match tensor {
                    $crate::__private::TensorPrimitive::Float(t) => Self::wrap_float(t),
                    $crate::__private::TensorPrimitive::QFloat(t) => Self::wrap_quantized(t),
                }
            }
            /// A dispatch tensor of this entry as a float or quantized primitive.
            fn primitive(
                tensor: DispatchTensor,
            ) -> $crate::__private::TensorPrimitive<Self::Backend> {
                match Self::unwrap(tensor) {
                    $crate::BackendTensor::Quantized(t) => {
                        $crate::__private::TensorPrimitive::QFloat(*t)
                    }
                    other => $crate::__private::TensorPrimitive::Float(other.into_float()),
                }
            }
            /// A float primitive as a dispatch tensor.
            fn wrap_float(
                tensor: $crate::__private::FloatTensor<Self::Backend>,
            ) -> DispatchTensor {
                Self::wrap($crate::BackendTensor::Float(tensor))
            }
            /// An int primitive as a dispatch tensor.
            fn wrap_int(tensor: $crate::__private::IntTensor<Self::Backend>) -> DispatchTensor {
                Self::wrap($crate::BackendTensor::Int(tensor))
            }
            /// A bool primitive as a dispatch tensor.
            fn wrap_bool(tensor: $crate::__private::BoolTensor<Self::Backend>) -> DispatchTensor {
                Self::wrap($crate::BackendTensor::Bool(tensor))
            }
            /// A new float primitive created on `device`: tracked-capable (untracked yet)
            /// when `device` is an autodiff device.
            fn wrap_float_on(
                device: &DispatchDevice,
                tensor: $crate::__private::FloatTensor<Self::Backend>,
            ) -> DispatchTensor {
                match device.checkpointing() {
                    #[cfg(feature = "autodiff")]
                    Some(strategy) => Self::wrap_autodiff(
                        $crate::__private::AutodiffTensor::new(tensor),
                        strategy,
                    ),
                    _ => Self::wrap_float(tensor),
                }
            }
            /// The float tensor as an autodiff tensor (a plain one becomes a constant).
            #[cfg(feature = "autodiff")]
            fn autodiff(
                tensor: DispatchTensor,
            ) -> $crate::__private::AutodiffTensor<Self::Backend> {
                match Self::unwrap(tensor) {
                    $crate::BackendTensor::Autodiff(tensor, _) => tensor,
                    other => $crate::__private::AutodiffTensor::new(other.into_float()),
                }
            }
            /// An autodiff float tensor as a dispatch tensor of `strategy`.
            #[cfg(feature = "autodiff")]
            fn wrap_autodiff(
                tensor: $crate::__private::AutodiffTensor<Self::Backend>,
                strategy: $crate::GradientCheckpointingStrategy,
            ) -> DispatchTensor {
                Self::wrap($crate::BackendTensor::Autodiff(tensor, strategy))
            }
        }

        /// One marker type per catalog entry.
        pub mod entries {
            $(
                #[cfg(feature = $feature)]
                #[doc = concat!("The `", stringify!($variant), "` entry.")]
                #[derive(Debug, Clone, Copy)]
                pub struct $variant;
            )*
            $(
                /// The recording entry (graph capture).
                #[derive(Debug, Clone, Copy)]
                pub struct $rvariant;
            )?
        }

        $(
            #[cfg(feature = $feature)]
            $crate::define_dispatch!(@entry [$variant, $backend, $index] |other| panic!(
                "expected a tensor on a {} device, got one on a {} device; move \
                 tensors to one device with `to_device` before combining them",
                stringify!($variant),
                other.backend_name()
            ));
        )*
        $(
            $crate::define_dispatch!(@entry [$rvariant, $rbackend, 15] |other| $radopt(other));
        )?

        #[allow(unused_macros)]
        macro_rules! dispatch {
            ($d tensor:expr, $d E:ident, $d B:ident => $d body:expr) => {
                match $d tensor {
                    $(
                        #[cfg(feature = $feature)]
                        DispatchTensor::$variant(_) => {
                            #[allow(dead_code)]
                            type $d E = entries::$variant;
                            #[allow(dead_code)]
                            type $d B = $backend;
                            $d body
                        }
                    )*
                    $(
                        DispatchTensor::$rvariant(_) => {
                            #[allow(dead_code)]
                            type $d E = entries::$rvariant;
                            #[allow(dead_code)]
                            type $d B = $rbackend;
                            $d body
                        }
                    )?
                }
            };
        }

        #[allow(unused_macros)]
        macro_rules! dispatch_device {
            ($d device:expr, $d E:ident, $d B:ident => $d body:expr) => {
                #[allow(unreachable_patterns)]
                match $d device.base() {
                    $(
                        #[cfg(feature = $feature)]
                        DispatchDevice::$variant(_) => {
                            #[allow(dead_code)]
                            type $d E = entries::$variant;
                            #[allow(dead_code)]
                            type $d B = $backend;
                            $d body
                        }
                    )*
                    $(
                        DispatchDevice::$rvariant(_) => {
                            #[allow(dead_code)]
                            type $d E = entries::$rvariant;
                            #[allow(dead_code)]
                            type $d B = $rbackend;
                            $d body
                        }
                    )?
                    _ => unreachable!("base() never returns an autodiff device"),
                }
            };
        }

        impl DispatchTensor {
            /// The name of the catalog variant holding this tensor.
            pub fn backend_name(&self) -> &'static str {
                match self {
                    $(
                        #[cfg(feature = $feature)]
                        DispatchTensor::$variant(_) => stringify!($variant),
                    )*
                    $( DispatchTensor::$rvariant(_) => stringify!($rvariant), )?
                }
            }

            /// Whether this tensor belongs to a graph capture in progress.
            pub fn is_recording(&self) -> bool {
                #[allow(unreachable_patterns)]
                match self {
                    $( DispatchTensor::$rvariant(_) => true, )?
                    _ => false,
                }
            }
        }

        impl DispatchDevice {
            $(
                #[cfg(feature = $feature)]
                #[doc = concat!("The default device of the `", stringify!($variant), "` backend.")]
                pub fn $constructor() -> Self {
                    DispatchDevice::$variant(Default::default())
                }
            )*

            /// The name of the catalog variant of this device.
            pub fn backend_name(&self) -> &'static str {
                #[allow(unreachable_patterns)]
                match self.base() {
                    $(
                        #[cfg(feature = $feature)]
                        DispatchDevice::$variant(_) => stringify!($variant),
                    )*
                    $( DispatchDevice::$rvariant(_) => stringify!($rvariant), )?
                    _ => unreachable!("base() never returns an autodiff device"),
                }
            }

            /// For the device of a graph capture in progress (with autodiff or not), the device
            /// it records for.
            pub fn recording_base(&self) -> Option<&DispatchDevice> {
                #[allow(unreachable_patterns)]
                match self.base() {
                    $( DispatchDevice::$rvariant(device) => Some($rbase(device)), )?
                    _ => None,
                }
            }

            /// The default device of every compiled backend, in catalog order.
            // One push per entry, each behind its feature: not expressible as `vec![..]`.
            #[allow(clippy::vec_init_then_push)]
            pub fn compiled_defaults() -> Vec<DispatchDevice> {
                #[allow(unused_mut)]
                let mut devices = Vec::new();
                $(
                    #[cfg(feature = $feature)]
                    devices.push(DispatchDevice::$variant(Default::default()));
                )*
                devices
            }
        }
    };
}
