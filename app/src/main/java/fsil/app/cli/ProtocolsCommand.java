package fsil.app.cli;

import fsil.api.Plugin;
import picocli.CommandLine.Command;

import java.util.List;

/** Lists the protocols with their options. */
@Command(name = "protocols", mixinStandardHelpOptions = true,
        description = "List the available protocols and their options (--protocol ID, -o NAME=VALUE).")
final class ProtocolsCommand extends PluginListing {
    @Override
    List<? extends Plugin> plugins() {
        return installed.protocols().all();
    }
}
