package fsil.notebook;

import io.github.spencerpark.ijava.IJava;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rapaio.jupyter.kernel.MainApp;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Finding the kernel's display function, against stand-ins with the real kernels' class and member names (the
 * stand-ins' shapes are checked against the published jars by {@link KernelApiTest}).
 */
class KernelDisplayTest {
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);

    private static Map<String, String> bundle() {
        Map<String, String> b = new LinkedHashMap<>();
        b.put("text/plain", "plain");
        b.put("text/html", "<b>html</b>");
        return b;
    }

    @AfterEach
    void reset() {
        IJava.kernel = null;
        MainApp.kernel.shown.clear();
    }

    @Test
    void rapaioWhenTheJvmWasLaunchedAsThatKernel() {
        ClassLoader loader = getClass().getClassLoader();
        KernelDisplay d = KernelDisplay.find(loader, "org.rapaio.jupyter.kernel.MainApp /tmp/kernel-1.json", out);
        assertEquals("rapaio", d.name());
        d.show(bundle());
        assertEquals(1, MainApp.kernel.shown.size());
        assertEquals(Map.of("text/plain", "plain", "text/html", "<b>html</b>"), MainApp.kernel.shown.get(0).data);
        assertEquals("", buffer.toString(StandardCharsets.UTF_8), "nothing printed");
    }

    @Test
    void rapaioOnTheClasspathAloneIsNotTakenForARunningKernel() {
        KernelDisplay d = KernelDisplay.find(getClass().getClassLoader(), "org.junit.platform.Launcher", out);
        assertEquals("text", d.name());
        d.show(bundle());
        assertEquals("plain" + System.lineSeparator(), buffer.toString(StandardCharsets.UTF_8));
        assertTrue(MainApp.kernel.shown.isEmpty());
    }

    @Test
    void ijavaWhenItsKernelInstanceExists() {
        IJava.kernel = new IJava.Kernel();
        KernelDisplay d = KernelDisplay.find(getClass().getClassLoader(), "some.Main", out);
        assertEquals("ijava", d.name());
        d.show(bundle());
        assertEquals(bundle(), IJava.kernel.shown.get(0).data);
    }

    @Test
    void textWhenNoKernelClassIsVisible() {
        // A loader that sees only the JDK: none of the stand-ins.
        ClassLoader bare = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader());
        KernelDisplay d = KernelDisplay.find(bare, "org.rapaio.jupyter.kernel.MainApp x", out);
        assertEquals("text", d.name());
        d.show(Map.of("text/html", "<i>no plain text</i>"));
        assertEquals("", buffer.toString(StandardCharsets.UTF_8), "only text/plain is printed");
    }

    @Test
    void rapaioWhenLaunchedThroughFsilsKernelLauncher() {
        KernelDisplay d = KernelDisplay.find(getClass().getClassLoader(),
                "fsil.notebook.kernel.RapaioLauncher /run/kernel-7.json", out);
        assertEquals("rapaio", d.name());
    }
}
