package fsil.notebook;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.spi.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The members {@link KernelDisplay} calls reflectively exist, public and with these exact signatures, in the
 * published kernels (jars copied from Maven Central by the build into target/kernel and target/kernel-api), read
 * with javap so that nothing is loaded or initialised. IJava's own jar is not on Maven Central: its
 * {@code IJava.getKernelInstance()} returns a {@code JavaKernel}, a {@code BaseKernel} of jupyter-jvm-basekernel,
 * whose display method is checked here.
 */
class KernelApiTest {

    private static String javap(String jar, String... classes) {
        Path path = Path.of("target", jar);
        assertTrue(Files.isRegularFile(path), "copied by the build: " + path.toAbsolutePath());
        ToolProvider javap = ToolProvider.findFirst("javap").orElseThrow();
        StringWriter out = new StringWriter();
        String[] args = new String[classes.length + 3];
        args[0] = "-public";
        args[1] = "-cp";
        args[2] = path.toString();
        System.arraycopy(classes, 0, args, 3, classes.length);
        int rc = javap.run(new PrintWriter(out), new PrintWriter(out), args);
        assertEquals(0, rc, out.toString());
        return out.toString();
    }

    private static void has(String javap, String member) {
        assertTrue(javap.contains("  " + member + ";"), "missing '" + member + "' in:\n" + javap);
    }

    @Test
    void rapaioKernel() {
        String p = javap("kernel/rapaio-jupyter-kernel.jar", "org.rapaio.jupyter.kernel.MainApp",
                "org.rapaio.jupyter.kernel.core.RapaioKernel", "org.rapaio.jupyter.kernel.display.DisplayData");
        has(p, "public static final org.rapaio.jupyter.kernel.core.RapaioKernel kernel");
        has(p, "public void display(org.rapaio.jupyter.kernel.display.DisplayData)");
        has(p, "public static org.rapaio.jupyter.kernel.display.DisplayData fromText(java.lang.String)");
        has(p, "public void putData(java.lang.String, java.lang.Object)");
    }

    @Test
    void ijavaBaseKernel() {
        String p = javap("kernel-api/jupyter-jvm-basekernel.jar", "io.github.spencerpark.jupyter.kernel.BaseKernel",
                "io.github.spencerpark.jupyter.kernel.display.DisplayData");
        has(p, "public void display(io.github.spencerpark.jupyter.kernel.display.DisplayData)");
        has(p, "public io.github.spencerpark.jupyter.kernel.display.DisplayData()");
        has(p, "public void putData(java.lang.String, java.lang.Object)");
    }

    @Test
    void jjavaBaseKernel() {
        String p = javap("kernel-api/jjava-jupyter.jar", "org.dflib.jjava.jupyter.kernel.BaseKernel",
                "org.dflib.jjava.jupyter.kernel.display.DisplayData");
        has(p, "public void display(org.dflib.jjava.jupyter.kernel.display.DisplayData)");
        has(p, "public org.dflib.jjava.jupyter.kernel.display.DisplayData()");
        has(p, "public void putData(java.lang.String, java.lang.Object)");
    }
}
