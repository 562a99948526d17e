package fsil.app.cli;

import fsil.api.Plugin;
import picocli.CommandLine.Command;

import java.util.List;

/** Lists the metrics every run stores, with what each measures. */
@Command(name = "metrics", mixinStandardHelpOptions = true,
        description = "List the metrics a run stores per unit and summarises (units.csv, summary.csv).")
final class MetricsCommand extends PluginListing {
    @Override
    List<? extends Plugin> plugins() {
        return installed.metrics().all();
    }
}
