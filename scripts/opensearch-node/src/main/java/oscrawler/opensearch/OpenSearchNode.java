package oscrawler.opensearch;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.logging.log4j.LogManager;
import org.opensearch.analysis.common.CommonAnalysisPlugin;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.index.mapper.MapperExtrasPlugin;
import org.opensearch.index.reindex.ReindexPlugin;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.painless.PainlessPlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.transport.Netty4Plugin;

/**
 * A single OpenSearch node for local development and CI, started by scripts/opensearch.
 *
 * <p>The official distribution (tarball/Docker image) cannot be fetched here, so the node
 * is built from the Maven Central jars: the server plus the modules the crawler needs,
 * handed to Node's protected constructor as classpath plugins instead of being loaded
 * from a modules/ directory. We also skip the distribution's Bootstrap (security manager,
 * native mlockall/seccomp, production bootstrap checks): this is a 127.0.0.1-only dev node.
 *
 * <p>Usage: {@code java -cp 'lib/*:classes' oscrawler.opensearch.OpenSearchNode <path.home>}
 * with {@code <path.home>/config/opensearch.yml} holding the node settings.
 */
public final class OpenSearchNode extends Node {

    /** The modules a stock distribution ships and the crawler relies on. */
    private static final List<Class<? extends Plugin>> PLUGINS = List.of(
        Netty4Plugin.class,          // HTTP + transport
        CommonAnalysisPlugin.class,  // analyzers, tokenizers, token filters
        PainlessPlugin.class,        // painless scripts (update/delete by query, script queries)
        ReindexPlugin.class,         // _update_by_query, _delete_by_query, _reindex
        MapperExtrasPlugin.class     // scaled_float, rank_feature, token_count, ...
    );

    private OpenSearchNode(Environment environment, Collection<Class<? extends Plugin>> plugins) {
        // true = forbidPrivateIndexSettings, as in the distribution (users cannot set index.version.created etc.)
        super(environment, plugins, true);
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: OpenSearchNode <path.home>  (settings in <path.home>/config/opensearch.yml)");
            System.exit(2);
        }
        Path home = Paths.get(args[0]).toAbsolutePath().normalize();
        Settings input = Settings.builder().put("path.home", home.toString()).build();
        // Reads <home>/config/opensearch.yml, like the distribution's launcher does.
        Environment env = InternalSettingsPreparer.prepareEnvironment(
            input, Collections.emptyMap(), home.resolve("config"), () -> "node-" + home.getFileName());

        OpenSearchNode node;
        try {
            node = new OpenSearchNode(env, PLUGINS);
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        // SIGTERM/SIGINT (scripts/opensearch stop): close the node cleanly so indices are flushed.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
                node.awaitClose(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                // log4j's own shutdown hook is disabled (-Dlog4j.shutdownHookEnabled=false) so
                // that the node's "stopping/closed" lines still get logged; flush it last.
                LogManager.shutdown();
                stopped.countDown();
            }
        }, "opensearch-node-shutdown"));

        try {
            node.start();
        } catch (Throwable t) {
            // Without this, threads created by the constructor would keep a broken JVM alive.
            t.printStackTrace();
            System.exit(1);
        }
        // Node threads are daemons in part; keep the JVM alive until the shutdown hook ran.
        stopped.await();
    }
}
