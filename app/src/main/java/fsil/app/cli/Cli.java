package fsil.app.cli;

import com.google.inject.Guice;
import com.google.inject.Injector;
import fsil.app.FsilModule;
import fsil.app.Plugins;

import java.nio.file.Path;

/** Shared wiring for the commands. */
final class Cli {
    private Cli() {
    }

    static Injector injector(Path cacheDir) {
        return Guice.createInjector(new FsilModule().withCacheDir(cacheDir));
    }

    static Plugins plugins() {
        return injector(null).getInstance(Plugins.class);
    }
}
