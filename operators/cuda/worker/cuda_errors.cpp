#include "operators/cuda/worker/cuda_errors.hpp"

namespace rubric::cuda::worker {

ErrorClass classify_cuda_error(int code) {
  switch (code) {
    // The machine, driver or toolkit: nothing the candidate did.
    case 3:    // cudaErrorInitializationError
    case 34:   // cudaErrorStubLibrary
    case 35:   // cudaErrorInsufficientDriver
    case 36:   // cudaErrorCallRequiresNewerDriver
    case 46:   // cudaErrorDevicesUnavailable (exclusive mode, busy)
    case 49:   // cudaErrorIncompatibleDriverContext
    case 100:  // cudaErrorNoDevice
    case 101:  // cudaErrorInvalidDevice
    case 102:  // cudaErrorDeviceNotLicensed
    case 103:  // cudaErrorSoftwareValidityNotEstablished
    case 127:  // cudaErrorStartupFailure
    case 200:  // cudaErrorInvalidKernelImage (our build)
    case 201:  // cudaErrorDeviceUninitialized
    case 209:  // cudaErrorNoKernelImageForDevice (built for another architecture)
    case 214:  // cudaErrorECCUncorrectable
    case 218:  // cudaErrorInvalidPtx (the driver cannot JIT what nvcc emitted)
    case 220:  // cudaErrorNvlinkUncorrectable
    case 221:  // cudaErrorJitCompilerNotFound
    case 222:  // cudaErrorUnsupportedPtxVersion (driver older than the toolkit)
    case 223:  // cudaErrorJitCompilationDisabled
    case 802:  // cudaErrorSystemNotReady
    case 803:  // cudaErrorSystemDriverMismatch
    case 804:  // cudaErrorCompatNotSupportedOnDevice
    case 805:  // cudaErrorMpsConnectionFailed
    case 806:  // cudaErrorMpsRpcFailure
    case 807:  // cudaErrorMpsServerNotReady
    case 808:  // cudaErrorMpsMaxClientsReached
    case 809:  // cudaErrorMpsMaxConnectionsReached
    case 810:  // cudaErrorMpsClientTerminated
    case 911:  // cudaErrorExternalDevice
      return ErrorClass::environment;
    // The context is unusable after these; a kernel of the candidate's caused them.
    case 4:    // cudaErrorCudartUnloading
    case 53:   // cudaErrorPriorLaunchFailure
    case 226:  // cudaErrorContained
    case 700:  // cudaErrorIllegalAddress
    case 702:  // cudaErrorLaunchTimeout
    case 709:  // cudaErrorContextIsDestroyed
    case 710:  // cudaErrorAssert
    case 714:  // cudaErrorHardwareStackError
    case 715:  // cudaErrorIllegalInstruction
    case 716:  // cudaErrorMisalignedAddress
    case 717:  // cudaErrorInvalidAddressSpace
    case 718:  // cudaErrorInvalidPc
    case 719:  // cudaErrorLaunchFailure
    case 721:  // cudaErrorTensorMemoryLeak
    case 999:  // cudaErrorUnknown
      return ErrorClass::sticky;
    default:
      return ErrorClass::request;
  }
}

std::string_view error_class_name(ErrorClass c) {
  switch (c) {
    case ErrorClass::request: return "request";
    case ErrorClass::sticky: return "sticky";
    case ErrorClass::environment: return "environment";
  }
  return "request";
}

}  // namespace rubric::cuda::worker
