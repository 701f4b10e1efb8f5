//! The macro that defines the library's exported MPI names: each
//! `#[no_mangle]` function forwards its parameters to a C function of the
//! interposer. A Rust cdylib exports only the crate's own `#[no_mangle]`
//! functions (C symbols linked into it stay hidden), so every name the
//! application calls is defined here and the work is done in C.

use std::ffi::{c_int, c_void};

/// An MPI handle (MPI_Comm, MPI_Info) passed through untouched.
pub type Handle = *mut c_void;
/// A Fortran argument (every one is passed by reference).
pub type F = *mut c_int;

/// Exports each of `[names]`, forwarding its parameters to the C function
/// `shim`, declared here with the same parameters.
macro_rules! forward {
    ($doc:literal, [$($name:ident),+] => $shim:ident $($signature:tt)*) => {
        forward!(@declare $shim $($signature)*);
        forward!(@export $doc, [$($name),+] => $shim $($signature)*);
    };
    (@declare $shim:ident ($($arg:ident: $ty:ty),*) $(-> $ret:ty)?) => {
        extern "C" {
            fn $shim($($arg: $ty),*) $(-> $ret)?;
        }
    };
    (@export $doc:literal, [$name:ident $(, $more:ident)*] => $shim:ident ($($arg:ident: $ty:ty),*) $(-> $ret:ty)?) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// As the MPI function of this name: valid handles and arrays.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name($($arg: $ty),*) $(-> $ret)? {
            $shim($($arg),*)
        }
        forward!(@export $doc, [$($more),*] => $shim ($($arg: $ty),*) $(-> $ret)?);
    };
    (@export $doc:literal, [] => $($rest:tt)*) => {};
}
