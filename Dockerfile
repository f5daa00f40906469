# plugcheck in a small Debian 12 image, with what --sandbox needs.
#
#   docker build -t plugcheck .
#   docker run --rm -v "$PWD:/work" plugcheck .          # check ./ (the plugin)
#   docker run --rm --privileged -v "$PWD:/work" plugcheck --sandbox .
#
# --sandbox runs bubblewrap and strace inside the container, which needs
# user namespaces, mount and ptrace there: --privileged, or a seccomp
# profile allowing them plus --cap-add SYS_PTRACE (docs/sandbox.md).
#
# The build stage makes the .deb (the dist preset, cpack -G DEB); the
# runtime stage installs it with apt, which installs its Depends (the
# libraries the binary links, found by dpkg-shlibdeps), and its Recommends
# listed explicitly: bubblewrap, strace and python3, no other recommended
# package. tests/e2e/test_dist.py checks the list against the package.

FROM debian:12-slim AS build
WORKDIR /src
COPY bootstrap.sh ./
RUN sh bootstrap.sh --package-deps && rm -rf /var/lib/apt/lists/*
COPY . .
RUN cmake --preset dist -B /build >/dev/null \
 && cmake --build /build -j "$(nproc)" \
 && cd /build && cpack -G DEB -B /pkg

FROM debian:12-slim
COPY --from=build /pkg/plugcheck_*.deb /tmp/
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      /tmp/plugcheck_*.deb bubblewrap strace python3 \
 && rm -rf /var/lib/apt/lists/* /tmp/plugcheck_*.deb \
 && plugcheck --version
WORKDIR /work
ENTRYPOINT ["plugcheck"]
CMD ["--help"]
