package fsil.app.cli;

import fsil.app.CacheDir;
import fsil.app.Plugins;
import jakarta.inject.Inject;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * A command with a {@code --cache DIR} option ({@code run}, {@code report}, {@code compare}): {@link Main} makes the
 * application's injector with that directory, then fills the {@code @Inject} fields.
 */
abstract class CachedCommand implements Callable<Integer> {
    @Option(names = "--cache", paramLabel = "DIR", description = "cache of datasets, features and the checked copy "
            + "of plotly.js (default $FSIL_CACHE or ~/.cache/fsil)")
    Path cache;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    @Inject
    Plugins plugins;
    @Inject
    @CacheDir
    Path cacheDir;
}
