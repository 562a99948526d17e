#!/usr/bin/env bash
# Installs the Jupyter Java kernel for fsil into DIR, writing nothing under ~:
#   DIR/kernel/rapaio-jupyter-kernel.jar   the kernel (rapaio-jupyter-kernel from Maven Central, via Maven)
#   DIR/kernel/fsil-kernel-launcher.jar    fsil.notebook.kernel.RapaioLauncher, which starts the kernel without its
#                                          start-up races (a kernel stuck at "Connecting...": notebooks/README.md)
#   DIR/lib/*.jar                          fsil's jars and all their runtime dependencies (the notebook classpath)
#   DIR/kernels/fsil-java/kernel.json      the kernelspec
# Then: JUPYTER_PATH=DIR jupyter notebook   (or: jupyter kernelspec install --user DIR/kernels/fsil-java)
#
# Environment: JAVA_HOME (the JDK that runs the kernel; default: the java on PATH), FSIL_PLUGINS (a folder of
# extra method jars, default <repo>/plugins; added to the classpath when it exists), FSIL_MVN_ARGS (extra Maven
# arguments, e.g. -o), FSIL_SKIP_BUILD=1 (use the jars already built, by 'mvn -Pkernels package' or verify),
# FSIL_KERNEL_JAVA_OPTS (extra JVM options of the kernel, e.g. -Xmx8g).
set -euo pipefail

if [ $# -ne 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  echo "usage: notebooks/install-kernel.sh DIR   (installs the kernelspec fsil-java into DIR/kernels)" >&2
  exit 2
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mkdir -p "$1"
dir="$(cd "$1" && pwd)"

if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
  java="$JAVA_HOME/bin/java"
else
  command -v java >/dev/null || { echo "install-kernel: no java on PATH and JAVA_HOME unset: install a JDK 17+" >&2; exit 2; }
  java="$(readlink -f "$(command -v java)")"
fi
version="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
if [ -z "$version" ] || [ "${version%%.*}" -lt 17 ]; then
  echo "install-kernel: $java is Java '${version:-?}'; the kernel and fsil need Java 17 or later (set JAVA_HOME)" >&2
  exit 2
fi

# 1. Build fsil's jars (tests skipped), app/target/lib (runtime dependencies), the launcher jar and the kernel jar
#    (notebooks/target/kernel, copied from Maven Central by the notebooks module's profile 'kernels').
if [ "${FSIL_SKIP_BUILD:-0}" != "1" ]; then
  command -v mvn >/dev/null || { echo "install-kernel: Maven (mvn) is needed: apt-get install maven" >&2; exit 2; }
  echo "install-kernel: building fsil (mvn package, tests skipped) ..." >&2
  # shellcheck disable=SC2086
  # Quiet and plain, as in bin/fsil: Maven 3.8.7 writes colour resets (ESC[0m) even with -B; they are removed.
  (cd "$root" && mvn -q -B -Dstyle.color=never ${FSIL_MVN_ARGS:-} -DskipTests -Pkernels package -pl notebooks -am) 2>&1 \
    | sed -u $'s/\e\\[[0-9;]*m//g' >&2
fi
kernel_jar="$root/notebooks/target/kernel/rapaio-jupyter-kernel.jar"
launcher_jar="$(ls "$root"/notebooks/target/notebooks-*-kernel-launcher.jar 2>/dev/null | head -1)"
notebooks_jar="$(ls "$root"/notebooks/target/notebooks-*.jar 2>/dev/null | grep -v -e '-kernel-launcher\.jar$' -e '-sources\.jar$' | head -1)"
for f in "$kernel_jar" "$root"/app/target/app-*.jar "${notebooks_jar:-notebooks/target/notebooks-VERSION.jar}" \
         "${launcher_jar:-notebooks/target/notebooks-VERSION-kernel-launcher.jar}"; do
  [ -f "$f" ] || { echo "install-kernel: $f is missing: build with 'mvn -Pkernels package' or run without FSIL_SKIP_BUILD=1" >&2; exit 1; }
done

# 2. The kernel classpath: a private copy, so that a later 'mvn clean' does not break an installed kernel.
rm -rf "$dir/lib" "$dir/kernel"
mkdir -p "$dir/lib" "$dir/kernel" "$dir/kernels/fsil-java"
cp "$root"/app/target/lib/*.jar "$root"/app/target/app-*.jar "$notebooks_jar" "$dir/lib/"
cp "$kernel_jar" "$dir/kernel/"
cp "$launcher_jar" "$dir/kernel/fsil-kernel-launcher.jar"
classpath="$dir/lib/*.jar"
plugins="${FSIL_PLUGINS:-$root/plugins}"
if [ -d "$plugins" ] && compgen -G "$plugins/*.jar" >/dev/null; then
  classpath="$classpath;$(cd "$plugins" && pwd)/*.jar"
fi

# 3. The kernelspec. The JVM runs fsil's launcher with the kernel jar (the notebook classpath stays RJK_CLASSPATH,
#    which JShell loads: fsil's jars must not be on the JVM's own class path). RJK_CLASSPATH entries are separated
#    by ';' (not ':') and may be globs. RJK_MIMA_CACHE is resolved relative to the kernel jar's folder, so it is a
#    relative name. FSIL_KERNEL_JAVA_OPTS adds JVM options (space-separated), e.g. -Xmx8g.
json_string() { printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"; }
rjk_version="$(sed -n 's:.*<rjk.version>\(.*\)</rjk.version>.*:\1:p' "$root/notebooks/pom.xml")"
extra_opts=""
for o in ${FSIL_KERNEL_JAVA_OPTS:-}; do extra_opts="$extra_opts $(json_string "$o"),"; done
cat > "$dir/kernels/fsil-java/kernel.json" <<EOF
{
  "argv": [$(json_string "$java"), "-Djava.awt.headless=true",${extra_opts}
           "-cp", $(json_string "$dir/kernel/rapaio-jupyter-kernel.jar:$dir/kernel/fsil-kernel-launcher.jar"),
           "fsil.notebook.kernel.RapaioLauncher", "{connection_file}"],
  "display_name": "Java (fsil)",
  "language": "java",
  "interrupt_mode": "message",
  "env": {
    "RJK_CLASSPATH": $(json_string "$classpath"),
    "RJK_COMPILER_OPTIONS": "",
    "RJK_INIT_SCRIPT": "",
    "RJK_TIMEOUT_MILLIS": "-1",
    "RJK_MIMA_CACHE": "mima_cache"
  },
  "metadata": {"fsil": {"kernel": "rapaio-jupyter-kernel $rjk_version", "launcher": "fsil.notebook.kernel.RapaioLauncher",
                        "java": $(json_string "$java")}}
}
EOF
echo "install-kernel: kernelspec fsil-java in $dir/kernels/fsil-java ($(ls "$dir/lib" | wc -l) jars, $java)" >&2
