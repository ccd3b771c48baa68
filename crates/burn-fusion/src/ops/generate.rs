//! The callback macro the operation tables expand into: it writes the `Fusion<B>` trait
//! methods that record an operation (the executor that runs them is `burn_ir::execute`).

/// The `Fusion<B>` parameter type of an argument kind.
macro_rules! fusion_arg_ty {
    (F) => { FusionTensor<B> };
    (I) => { FusionTensor<B> };
    (B) => { FusionTensor<B> };
    (OptF) => { Option<FusionTensor<B>> };
    (OptB) => { Option<FusionTensor<B>> };
    (VecF) => { Vec<FusionTensor<B>> };
    (VecI) => { Vec<FusionTensor<B>> };
    (VecB) => { Vec<FusionTensor<B>> };
    (Dev) => { &<B as burn_backend::BackendTypes>::Device };
    (Val $t:ty) => { $t };
    (Slice $t:ty) => { &[$t] };
}

/// The `Fusion<B>` return type of an output kind.
macro_rules! fusion_out_ty {
    (F) => { FusionTensor<B> };
    (I) => { FusionTensor<B> };
    (B) => { FusionTensor<B> };
    (FI) => { (FusionTensor<B>, FusionTensor<B>) };
    (II) => { (FusionTensor<B>, FusionTensor<B>) };
}

/// Sets `$slot` to the client of the argument, when it is the first to name one.
macro_rules! fusion_client {
    (F; $x:expr, $slot:ident) => { if $slot.is_none() { $slot = Some($x.client.clone()); } };
    (I; $x:expr, $slot:ident) => { fusion_client!(F; $x, $slot) };
    (B; $x:expr, $slot:ident) => { fusion_client!(F; $x, $slot) };
    (OptF; $x:expr, $slot:ident) => { if let Some(t) = $x { fusion_client!(F; t, $slot) } };
    (OptB; $x:expr, $slot:ident) => { fusion_client!(OptF; $x, $slot) };
    (VecF; $x:expr, $slot:ident) => { if let Some(t) = $x.first() { fusion_client!(F; t, $slot) } };
    (VecI; $x:expr, $slot:ident) => { fusion_client!(VecF; $x, $slot) };
    (VecB; $x:expr, $slot:ident) => { fusion_client!(VecF; $x, $slot) };
    (Dev; $x:expr, $slot:ident) => { if $slot.is_none() { $slot = Some(FusionClient::<B>::get(*$x)); } };
    (Val $t:ty; $x:expr, $slot:ident) => {};
    (Slice $t:ty; $x:expr, $slot:ident) => {};
}

/// The recorded (IR) form of an argument.
macro_rules! fusion_to_ir {
    (F; $x:expr) => { $x.into_ir() };
    (I; $x:expr) => { $x.into_ir() };
    (B; $x:expr) => { $x.into_ir() };
    (OptF; $x:expr) => { $x.map(FusionTensor::into_ir) };
    (OptB; $x:expr) => { $x.map(FusionTensor::into_ir) };
    (VecF; $x:expr) => { $x.into_iter().map(FusionTensor::into_ir).collect::<Vec<_>>() };
    (VecI; $x:expr) => { fusion_to_ir!(VecF; $x) };
    (VecB; $x:expr) => { fusion_to_ir!(VecF; $x) };
    (Dev; $x:expr) => { { let _ = $x; } };
    (Val $t:ty; $x:expr) => { $x };
    (Slice $t:ty; $x:expr) => { $x.to_vec() };
}

/// The output tensors (IR) of an operation from its rule's result.
macro_rules! fusion_out_ir {
    (F; $client:ident, $spec:expr) => { { let s = $spec; TensorIr::output($client.new_id(), s.shape, s.dtype) } };
    (I; $client:ident, $spec:expr) => { fusion_out_ir!(F; $client, $spec) };
    (B; $client:ident, $spec:expr) => { fusion_out_ir!(F; $client, $spec) };
    (FI; $client:ident, $spec:expr) => { {
        let [a, b] = $spec;
        [fusion_out_ir!(F; $client, a), fusion_out_ir!(F; $client, b)]
    } };
    (II; $client:ident, $spec:expr) => { fusion_out_ir!(FI; $client, $spec) };
}

/// The `Fusion<B>` result from the recorded outputs.
macro_rules! fusion_out_wrap {
    (F; $client:ident, $out:expr) => { { let o = $out; FusionTensor::new(o.id, o.shape, o.dtype, $client.clone()) } };
    (I; $client:ident, $out:expr) => { fusion_out_wrap!(F; $client, $out) };
    (B; $client:ident, $out:expr) => { fusion_out_wrap!(F; $client, $out) };
    (FI; $client:ident, $out:expr) => { {
        let [a, b] = $out;
        (fusion_out_wrap!(F; $client, a), fusion_out_wrap!(F; $client, b))
    } };
    (II; $client:ident, $out:expr) => { fusion_out_wrap!(FI; $client, $out) };
}

/// Writes the `Fusion<B>` trait methods of a table: lazy ones record, eager ones run at once.
macro_rules! fusion_methods {
    ($Enum:ident, $Trait:ident, $group:literal;
     lazy { $( $LV:ident = $lname:ident ( $($la:ident : $lk:ident $([$lt:ty])?),* $(,)? ) -> $lout:ident => $rule:expr; )* }
     eager { $( $EV:ident = $ename:ident ( $($ea:ident : $ek:ident $([$et:ty])?),* $(,)? ) -> $eout:ident; )* }
    ) => {
        $(
            #[allow(unused_mut)]
            fn $lname($($la: fusion_arg_ty!($lk $($lt)?)),*) -> fusion_out_ty!($lout) {
                let mut client: Option<Arc<FusionClient<B>>> = None;
                $( fusion_client!($lk $($lt)?; &$la, client); )*
                let client = client.expect(concat!(stringify!($lname), ": no tensor or device argument"));
                $( let $la = fusion_to_ir!($lk $($lt)?; $la); )*
                let ctx = RuleCtx {
                    op: stringify!($lname),
                    settings: get_device_settings::<B>(&client.device),
                };
                let out = fusion_out_ir!($lout; client, ($rule)(&ctx));
                client.register($Enum::$LV { $($la,)* out: out.clone() }.into());
                fusion_out_wrap!($lout; client, out)
            }
        )*
        $(
            #[allow(unused_mut)]
            fn $ename($($ea: fusion_arg_ty!($ek $($et)?)),*) -> fusion_out_ty!($eout) {
                let mut client: Option<Arc<FusionClient<B>>> = None;
                $( fusion_client!($ek $($et)?; &$ea, client); )*
                let client = client.expect(concat!(stringify!($ename), ": no tensor or device argument"));
                $( let $ea = fusion_to_ir!($ek $($et)?; $ea); )*
                let id = client.new_id();
                let out = TensorIr::output(id, Shape::new([0usize; 0]), DType::Bool(BoolStore::Native));
                let mut metadata = client.execute_now($Enum::$EV { $($ea,)* out }.into(), &[id]);
                let (shape, dtype) = metadata.remove(0);
                FusionTensor::new(id, shape, dtype, client)
            }
        )*
    };
}
