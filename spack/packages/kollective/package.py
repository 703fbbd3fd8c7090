# Spack recipe for Kollective, written to Spack's conventions (CMakePackage with CudaPackage) and
# untested: Spack is not in the registries of the machines Kollective is built on. Use it from a
# checkout: `spack repo add spack`, then `spack develop --path . kollective@main` and
# `spack install kollective@main +cuda cuda_arch=90`.

from spack.package import *


class Kollective(CMakePackage, CudaPackage):
    """Exact collective-decision problems on Kokkos, on GPUs and many-core CPUs: Schulze voting,
    Kemeny rank aggregation, coalition structure generation and linear RankSVM."""

    version("main", branch="main")

    variant("openmp", default=True, description="Kokkos' OpenMP backend for the host")
    variant("mpi", default=False, description="Solves shared by several ranks through MPI (NCCL with +cuda)")
    variant("python", default=False, description="The Python package (a nanobind extension)")
    variant("lp", default=True, description="Kemeny's LP bounds and branch and cut through COIN-OR CLP")
    variant("driver", default=True, description="The kollective command (YAML configs)")

    depends_on("cxx", type="build")
    depends_on("cmake@3.21:", type="build")
    depends_on("kokkos@4.6.01:")
    depends_on("kokkos-kernels@4.6.01:")
    depends_on("kokkos+openmp", when="+openmp")
    depends_on("kokkos~cuda", when="~cuda")
    for arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos+cuda+wrapper cuda_arch={arch}", when=f"+cuda cuda_arch={arch}")
    depends_on("yaml-cpp", when="+driver")
    depends_on("mpi", when="+mpi")
    depends_on("nccl", when="+mpi+cuda")
    depends_on("clp", when="+lp")
    depends_on("pkgconfig", type="build", when="+lp")
    depends_on("python@3.9:", type=("build", "run"), when="+python")
    depends_on("py-nanobind", type="build", when="+python")
    depends_on("py-numpy", type=("build", "run"), when="+python")
    depends_on("googletest", type="test")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("KOLLECTIVE_ENABLE_TESTS", self.run_tests),
            self.define("KOLLECTIVE_ENABLE_BENCHMARKS", False),
            self.define_from_variant("KOLLECTIVE_ENABLE_DRIVER", "driver"),
            self.define_from_variant("KOLLECTIVE_ENABLE_MPI", "mpi"),
            self.define_from_variant("KOLLECTIVE_ENABLE_PYTHON", "python"),
            self.define("KOLLECTIVE_LP", "on" if spec.satisfies("+lp") else "off"),
        ]
        if spec.satisfies("+cuda"):
            args.append(self.define("CMAKE_CXX_COMPILER", spec["kokkos"].kokkos_cxx))
        if spec.satisfies("+mpi+cuda"):
            args.append(self.define("NCCL_ROOT", spec["nccl"].prefix))
        if spec.satisfies("+python"):
            args.append(self.define("KOLLECTIVE_PYTHON_SITE", python_platlib))
        return args
