//! The callback macro the operation tables expand into: it writes the `Fusion<B>` trait
//! methods that record an operation (the executor that runs them is `burn_ir::execute`).

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

/// Writes the `Fusion<B>` trait methods of a table: lazy ones record, eager ones run at once.
macro_rules! fusion_methods {
    ($Enum:ident, $Trait:ident, $group:literal;
     lazy { $( $LV:ident = $lname:ident ( $($la:ident : $lk:ident $([$lt:ty])?),* $(,)? ) -> $lout:ident => $rule:expr; )* }
     eager { $( $EV:ident = $ename:ident ( $($ea:ident : $ek:ident $([$et:ty])?),* $(,)? ) -> $eout:ident; )* }
    ) => {
        $(
            #[allow(unused_mut)]
            fn $lname($($la: burn_ir::record_arg_ty!($lk $($lt)?; FusionTensor<B>, <B as burn_backend::BackendTypes>::Device)),*) -> burn_ir::record_out_ty!($lout; FusionTensor<B>) {
                let mut client: Option<Arc<FusionClient<B>>> = None;
                $( fusion_client!($lk $($lt)?; &$la, client); )*
                let client = client.expect(concat!(stringify!($lname), ": no tensor or device argument"));
                $( let $la = burn_ir::record_to_ir!($lk $($lt)?; $la); )*
                let ctx = RuleCtx {
                    op: stringify!($lname),
                    settings: get_device_settings::<B>(&client.device),
                };
                let out = burn_ir::record_out_ir!($lout; client, ($rule)(&ctx));
                client.register($Enum::$LV { $($la,)* out: out.clone() }.into());
                burn_ir::record_out_wrap!($lout; FusionTensor, client, out)
            }
        )*
        $(
            #[allow(unused_mut)]
            fn $ename($($ea: burn_ir::record_arg_ty!($ek $($et)?; FusionTensor<B>, <B as burn_backend::BackendTypes>::Device)),*) -> burn_ir::record_out_ty!($eout; FusionTensor<B>) {
                let mut client: Option<Arc<FusionClient<B>>> = None;
                $( fusion_client!($ek $($et)?; &$ea, client); )*
                let client = client.expect(concat!(stringify!($ename), ": no tensor or device argument"));
                $( let $ea = burn_ir::record_to_ir!($ek $($et)?; $ea); )*
                let id = client.new_id();
                let out = TensorIr::output(id, Shape::new([0usize; 0]), DType::Bool(BoolStore::Native));
                let mut metadata = client.execute_now($Enum::$EV { $($ea,)* out }.into(), &[id]);
                let (shape, dtype) = metadata.remove(0);
                FusionTensor::new(id, shape, dtype, client)
            }
        )*
    };
}
