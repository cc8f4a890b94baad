package evalengine

// strata: MySQL computes its floating-point functions with the C library's
// libm; Go's math package differs from glibc in the last bit for some
// arguments (ATAN2(3, 12): ...96155 against ...9615), which shows in the
// shortest decimal form clients receive. These wrappers call libm.

/*
#cgo LDFLAGS: -lm
#include <math.h>
*/
import "C"

func libmSin(x float64) float64      { return float64(C.sin(C.double(x))) }
func libmCos(x float64) float64      { return float64(C.cos(C.double(x))) }
func libmTan(x float64) float64      { return float64(C.tan(C.double(x))) }
func libmAsin(x float64) float64     { return float64(C.asin(C.double(x))) }
func libmAcos(x float64) float64     { return float64(C.acos(C.double(x))) }
func libmAtan(x float64) float64     { return float64(C.atan(C.double(x))) }
func libmAtan2(y, x float64) float64 { return float64(C.atan2(C.double(y), C.double(x))) }
func libmExp(x float64) float64      { return float64(C.exp(C.double(x))) }
func libmPow(x, y float64) float64   { return float64(C.pow(C.double(x), C.double(y))) }
func libmLog(x float64) float64      { return float64(C.log(C.double(x))) }
func libmLog10(x float64) float64    { return float64(C.log10(C.double(x))) }
