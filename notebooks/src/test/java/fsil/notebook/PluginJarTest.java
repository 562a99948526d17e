package fsil.notebook;

import fsil.api.FsilException;
import fsil.api.Method;
import fsil.notebook.testplugin.ReloadableMethod;
import fsil.testkit.MethodConformance;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Fsil.methodsIn: a plugin jar loaded (and loaded again) in the running JVM, as after a rebuild in a notebook. */
class PluginJarTest {

    /** A plugin jar with ReloadableMethod's class file and its services line. */
    static Path pluginJar(Path dir) throws IOException, URISyntaxException {
        String name = ReloadableMethod.class.getName().replace('.', '/') + ".class";
        Path classes = Path.of(ReloadableMethod.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path jar = dir.resolve("reloadable-plugin.jar");
        try (OutputStream f = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(f)) {
            j.putNextEntry(new JarEntry(name));
            j.write(Files.readAllBytes(classes.resolve(name)));
            j.putNextEntry(new JarEntry("META-INF/services/fsil.api.Method"));
            j.write((ReloadableMethod.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return jar;
    }

    @Test
    void eachCallLoadsTheJarAfreshEvenWhenAnOlderCopyIsOnTheClassPath(@TempDir Path dir) throws Exception {
        Path jar = pluginJar(dir);
        Method[] first = Fsil.methodsIn(jar);
        Method[] second = Fsil.methodsIn(jar);
        assertEquals(1, first.length, "only the jar's own methods, not the built-in ones");
        assertEquals("reloadable", first[0].id());
        assertEquals(ReloadableMethod.class.getName(), first[0].getClass().getName());
        assertNotSame(ReloadableMethod.class, first[0].getClass(), "defined from the jar, not the class path");
        assertNotSame(first[0].getClass(), second[0].getClass(), "a rebuilt jar would give new classes");
        assertSame(Method.class.getClassLoader(), first[0].getClass().getInterfaces()[0].getClassLoader(),
                "fsil's api is shared with the kernel");
        Fsil fsil = Fsil.create(second);
        assertSame(second[0], fsil.methods().get("reloadable"));
    }

    @Test
    void aMethodLoadedFromItsJarPassesTheConformanceKit(@TempDir Path dir) throws Exception {
        Method m = Fsil.methodsIn(pluginJar(dir))[0];
        Stream<DynamicTest> tests = MethodConformance.of(m).tests();
        for (DynamicTest t : tests.toList()) {
            try {
                t.getExecutable().execute();
            } catch (Throwable e) {
                throw new AssertionError(t.getDisplayName() + " failed", e);
            }
        }
    }

    @Test
    void clearErrors(@TempDir Path dir) throws Exception {
        assertTrue(assertThrows(FsilException.class, () -> Fsil.methodsIn(dir.resolve("missing.jar"))).getMessage()
                .contains("no plugin jar"));
        Path empty = dir.resolve("empty.jar");
        try (OutputStream f = Files.newOutputStream(empty); JarOutputStream j = new JarOutputStream(f)) {
            j.putNextEntry(new JarEntry("README.txt"));
        }
        assertTrue(assertThrows(FsilException.class, () -> Fsil.methodsIn(empty)).getMessage()
                .contains("lists no method"));
    }
}
