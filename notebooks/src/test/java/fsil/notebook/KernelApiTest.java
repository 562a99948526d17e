package fsil.notebook;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.spi.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The members fsil reaches reflectively exist, with these exact signatures, in the published kernels (jars copied
 * from Maven Central into target/kernel and target/kernel-api by the build with {@code -Pkernels}, which CI uses;
 * skipped otherwise), read with javap so that nothing is loaded or initialised: those {@link KernelDisplay} calls
 * to display, and those {@link fsil.notebook.kernel.RapaioLauncher} uses to start rapaio-jupyter-kernel. IJava's own
 * jar is not on Maven Central: its {@code IJava.getKernelInstance()} returns a {@code JavaKernel}, a
 * {@code BaseKernel} of jupyter-jvm-basekernel, whose display method is checked here.
 */
@EnabledIfSystemProperty(named = "fsil.kernelJars", matches = "true",
        disabledReason = "needs the kernel jars: mvn -Pkernels (as CI runs it)")
class KernelApiTest {
    static final Path RAPAIO_JAR = Path.of("target", "kernel", "rapaio-jupyter-kernel.jar");

    private static String javap(Path path, String visibility, String... classes) {
        assertTrue(Files.isRegularFile(path), "copied by the build with -Pkernels: " + path.toAbsolutePath());
        ToolProvider javap = ToolProvider.findFirst("javap").orElseThrow();
        StringWriter out = new StringWriter();
        String[] args = new String[classes.length + 3];
        args[0] = visibility;
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
        String p = javap(RAPAIO_JAR, "-public", "org.rapaio.jupyter.kernel.MainApp",
                "org.rapaio.jupyter.kernel.core.RapaioKernel", "org.rapaio.jupyter.kernel.display.DisplayData");
        has(p, "public static final org.rapaio.jupyter.kernel.core.RapaioKernel kernel");
        has(p, "public void display(org.rapaio.jupyter.kernel.display.DisplayData)");
        has(p, "public static org.rapaio.jupyter.kernel.display.DisplayData fromText(java.lang.String)");
        has(p, "public void putData(java.lang.String, java.lang.Object)");
    }

    /** What RapaioLauncher replaces MainApp.runKernel with, and what its watchdog touches. */
    @Test
    void rapaioKernelStartUp() {
        String k = "org.rapaio.jupyter.kernel.";
        String p = javap(RAPAIO_JAR, "-p", k + "MainApp", k + "core.Transform", k + "channels.Channels",
                k + "channels.AbstractChannel", k + "channels.ShellChannel", k + "channels.ControlChannel",
                k + "channels.HeartbeatChannel", k + "channels.LoopThread");
        has(p, "public static void main(java.lang.String[]) throws java.lang.Exception");
        has(p, "public static <T> T fromJson(java.lang.String, java.lang.Class<T>)");
        has(p, "public " + k + "channels.Channels(" + k + "core.ConnectionProperties) throws "
                + "java.security.NoSuchAlgorithmException, java.security.InvalidKeyException");
        has(p, "private final " + k + "channels.ShellChannel shell");
        has(p, "private final " + k + "channels.ControlChannel control");
        has(p, "private final " + k + "channels.HeartbeatChannel heartbeat");
        has(p, "public void connect(" + k + "core.RapaioKernel)");
        has(p, "public void joinUntilClose()");
        // the guard relies on the loops reading messages under the channel's monitor
        has(p, "public synchronized " + k + "message.Message<?> readMessage()");
        assertEquals(3, p.split("private volatile " + k + "channels.LoopThread loopThread;", -1).length - 1,
                "shell, control and heartbeat channels each have a loopThread field:\n" + p);
        has(p, "private volatile boolean running");
        has(p, "private final long sleep");
        has(p, "private final java.lang.Runnable loopBody");
        has(p, "public " + k + "channels.LoopThread(java.lang.String, long, java.lang.Runnable)");
    }

    @Test
    void ijavaBaseKernel() {
        String p = javap(Path.of("target", "kernel-api", "jupyter-jvm-basekernel.jar"), "-public",
                "io.github.spencerpark.jupyter.kernel.BaseKernel", "io.github.spencerpark.jupyter.kernel.display.DisplayData");
        has(p, "public void display(io.github.spencerpark.jupyter.kernel.display.DisplayData)");
        has(p, "public io.github.spencerpark.jupyter.kernel.display.DisplayData()");
        has(p, "public void putData(java.lang.String, java.lang.Object)");
    }

    @Test
    void jjavaBaseKernel() {
        String p = javap(Path.of("target", "kernel-api", "jjava-jupyter.jar"), "-public",
                "org.dflib.jjava.jupyter.kernel.BaseKernel", "org.dflib.jjava.jupyter.kernel.display.DisplayData");
        has(p, "public void display(org.dflib.jjava.jupyter.kernel.display.DisplayData)");
        has(p, "public org.dflib.jjava.jupyter.kernel.display.DisplayData()");
        has(p, "public void putData(java.lang.String, java.lang.Object)");
    }

    @Test
    void launchedWithTheJarThatHoldsTheMainClass() throws Exception {
        assertTrue(Files.isRegularFile(RAPAIO_JAR), "the kernel jar is copied by the build: " + RAPAIO_JAR.toAbsolutePath());
        try (URLClassLoader l = new URLClassLoader(new URL[]{RAPAIO_JAR.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            String name = "org.rapaio.jupyter.kernel.MainApp";
            Class<?> main = Class.forName(name, false, l);
            assertTrue(KernelDisplay.launchedWith(main, name, RAPAIO_JAR.toAbsolutePath() + " /run/kernel-7.json"));
            assertTrue(KernelDisplay.launchedWith(main, name, name + " /run/kernel-7.json"));
            assertTrue(KernelDisplay.launchedWith(main, name, "fsil.notebook.kernel.RapaioLauncher /run/kernel-7.json"));
            assertFalse(KernelDisplay.launchedWith(main, name, "other.jar /run/kernel-7.json"));
            assertFalse(KernelDisplay.launchedWith(main, name, "org.example.Main"));
        }
    }
}
