package fsil.app;

import com.google.inject.Guice;
import fsil.api.FsilException;
import fsil.api.Params;
import fsil.api.ProgressSink;
import fsil.data.Backbone;
import fsil.data.FeatureSet;
import fsil.data.IdentityBackbone;
import fsil.data.RawDataset;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Plugins listed in service files are made by the injector, so they can take what the application provides. */
class FsilModuleTest {

    /** A backbone with no public no-argument constructor: ServiceLoader cannot make it, the injector can. */
    public static final class Reporting implements Backbone {
        final ProgressSink progress;

        @Inject
        public Reporting(ProgressSink progress) {
            this.progress = progress;
        }

        @Override
        public String id() {
            return "reporting";
        }

        @Override
        public String description() {
            return "the identity, saying so";
        }

        @Override
        public List<fsil.api.Param<?>> parameters() {
            return List.of();
        }

        @Override
        public FeatureSet apply(RawDataset raw, Params params, long seed, Path cacheDir) {
            progress.message("reporting on " + raw.name());
            return IdentityBackbone.of(raw);
        }
    }

    /** Plugins as the application assembles them with {@code services} as the backbones' service file. */
    private static <T> T withBackboneServices(Path dir, String services, Supplier<T> body) throws IOException {
        Path file = dir.resolve("META-INF/services/" + Backbone.class.getName());
        Files.createDirectories(file.getParent());
        Files.writeString(file, services);
        Thread t = Thread.currentThread();
        ClassLoader old = t.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[]{dir.toUri().toURL()},
                FsilModuleTest.class.getClassLoader())) {
            t.setContextClassLoader(loader);
            return body.get();
        } finally {
            t.setContextClassLoader(old);
        }
    }

    @Test
    void aPluginWithAnInjectConstructorReceivesTheApplicationsSink(@TempDir Path tmp) throws IOException {
        List<String> lines = new ArrayList<>();
        ProgressSink sink = lines::add;
        Plugins plugins = withBackboneServices(tmp, "# a comment\n" + Reporting.class.getName() + "  # trailing\n"
                        + Reporting.class.getName() + "\n",
                () -> Guice.createInjector(new FsilModule().withProgress(sink)).getInstance(Plugins.class));
        Backbone b = plugins.backbones().get("reporting");
        assertSame(sink, ((Reporting) b).progress);
        RawDataset digits = fsil.data.Datasets.loadRaw("digits", tmp.resolve("cache"));
        b.apply(digits, b.defaults(), 0, tmp);
        assertEquals(List.of("reporting on digits"), lines);
    }

    @Test
    void theBuiltInBackboneReportsItsTrainingToTheInjectedSink(@TempDir Path tmp) {
        List<String> lines = new ArrayList<>();
        Plugins plugins = Guice.createInjector(new FsilModule().withProgress(lines::add)).getInstance(Plugins.class);
        Backbone mlp = plugins.backbones().get("pretrained-mlp");
        RawDataset digits = fsil.data.Datasets.loadRaw("digits", tmp.resolve("cache"));
        mlp.apply(digits, mlp.params(java.util.Map.of("hidden", "8", "epochs", "1")), 1, tmp.resolve("cache"));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("training backbone pretrained-mlp")), lines.toString());
    }

    @Test
    void aServiceFileNamingAMissingOrWrongClassIsOneClearError(@TempDir Path tmp) throws IOException {
        FsilException missing = assertThrows(FsilException.class, () -> withBackboneServices(tmp.resolve("a"),
                "com.example.Nowhere\n", () -> Guice.createInjector(new FsilModule()).getInstance(Plugins.class)));
        assertTrue(missing.getMessage().endsWith("names com.example.Nowhere, which is not on the class path"),
                missing.getMessage());
        FsilException wrong = assertThrows(FsilException.class, () -> withBackboneServices(tmp.resolve("b"),
                "java.lang.String\n", () -> Guice.createInjector(new FsilModule()).getInstance(Plugins.class)));
        assertTrue(wrong.getMessage().endsWith("names java.lang.String, which is not a Backbone"), wrong.getMessage());
    }
}
