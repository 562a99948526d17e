package fsil.eval.cli;

import com.google.inject.Guice;
import com.google.inject.Injector;
import fsil.eval.FsilModule;

import java.nio.file.Path;

/** Shared wiring for the commands. */
final class Cli {
    private Cli() {
    }

    static Injector injector(Path cacheDir) {
        return Guice.createInjector(new FsilModule(null, cacheDir));
    }
}
