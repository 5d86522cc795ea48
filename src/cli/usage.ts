import { DEFAULT_BASE_URL, settingsSchema } from '../core/settings/schema';
import { DEFAULT_CACHE_TTL_MINUTES } from './options';

/**
 * What `quorum --help`, `quorum eval --help` and `quorum mcp --help` print. The defaults they name are the
 * settings' and the flags' own (core/settings/schema.ts, options.ts), not copies.
 */

const DEFAULTS = settingsSchema.parse({});

export const USAGE = `Usage: quorum review <file> [options]
       quorum review --changes [--staged | --base REF | --last-commit] [--repo DIR] [--all-findings] [options]
       quorum eval [options]     score agents and models on a labelled corpus (quorum eval --help)
       quorum mcp [options]      serve the review as MCP tools over stdio for coding agents (quorum mcp --help)
       quorum stats [options]    what became of the findings shown in this repository (quorum stats --help)
       quorum doctor [options]   say what the gateway does: models, usage, JSON mode, request shape, prices (quorum doctor --help)

Reviews a file, or lines of it, with Quorum's agents through an OpenAI-compatible gateway.

Options:
  --changes                review what changed in the git repository instead of a file: uncommitted changes
                           (staged, unstaged and untracked files) against HEAD, or with
    --staged               only the staged changes (lines numbered as in the index)
    --base REF             the changes from the merge base of REF and HEAD to the working tree (a pull request)
    --last-commit          the last commit (HEAD~1..HEAD)
  --repo DIR               the repository for --changes (default: the current folder's); paths in the output
                           are relative to its root
  --all-findings           with --changes, keep findings outside the changed lines (marked outsideChanges)
  --lines START-END        review only these lines (1-based, inclusive)
  --agents a,b,...         run only these agents (analyst, architecture, security, coding, or custom ids)
  --model agent=model      use another model for an agent (repeatable)
  --base-url URL           the gateway (default: $QUORUM_BASE_URL, else ${DEFAULT_BASE_URL})
  --language CODE          language of the review text: en, ko, ... (default: from LC_ALL / LANG)
  --format text|markdown|json|sarif|github|codequality   how to print the result (default: text); sarif:
                           SARIF 2.1.0 for code scanning; github: GitHub Actions annotations; codequality: a
                           GitLab Code Quality report (artifacts:reports:codequality)
  --output FILE            write the result in --format to FILE; the terminal gets the text report
  --no-rules               leave out the repository's rules and agents (.quorum/, AGENTS.md)
  --context on|off         send definitions, callers and enclosing signatures of the reviewed code, read-only (default on)
  --context-tokens <n>     tokens of context per request at most (default ${DEFAULTS.context.maxTokens})
  --context-seconds <n>    seconds context may take to choose; later requests go without, and it says so (default ${DEFAULTS.context.timeBudgetSeconds})
  --dry-run                print exactly what would be sent (messages, models, estimate, host); send nothing
  --no-cache               neither read nor write the disk cache
  --cache-dir DIR          where answers are cached across runs (default: $XDG_CACHE_HOME/quorum, else ~/.cache/quorum)
  --cache-ttl MINUTES      how long cached answers are served (default ${DEFAULT_CACHE_TTL_MINUTES} = 7 days; 0 = off)
  --max-concurrency N      requests in flight at once (default ${DEFAULTS.limits.maxConcurrent})
  --timeout SECONDS        longest one agent's request may take, retries included (default ${DEFAULTS.limits.deadlineSeconds})
  --fail-on critical|high|medium|low|none   exit 1 when a finding is at or above this severity (default none)
  --min-confidence 0..1    hide findings below this confidence (default ${DEFAULTS.review.minConfidence})
  --min-severity LEVEL     hide findings less severe than critical|high|medium|low|info (default ${DEFAULTS.review.minSeverity})
  --show-hidden            list hidden findings too (hidden ones, and dismissed ones, never trigger --fail-on)
  --tool-results FILE      a SARIF 2.1.0 file of the project's linter, compiler or scanner (ESLint, tsc, Ruff,
                           Semgrep, CodeQL, Bandit, golangci-lint; repeatable; .quorum/tool-results/*.sarif are read
                           too): results on the reviewed lines are sent read-only, findings repeating them hidden
  --post github            with --changes --base, also post the review on the pull request: inline comments on
                           the diff's lines (with suggestions), a summary comment edited on each run, nothing
                           posted twice, earlier comments no longer raised marked resolved
  --pr N                   the pull request for --post github (default: from the event in GITHUB_EVENT_PATH)
  --post gitlab            the same on a GitLab merge request: diff threads (suggestions, line ranges), one
                           summary note edited on each run, threads whose finding is gone resolved
  --mr IID                 the merge request for --post gitlab (default: CI_MERGE_REQUEST_IID)
  --verify off|cross-model|same-model   a verifier agent checks each merged finding (default ${DEFAULTS.review.verify}: on a
                           model that did not raise it; --model verifier=MODEL picks it); refuted ones are hidden
  -h, --help               show this help
  --version                show the version

Environment: QUORUM_API_KEY (required, except for --dry-run and a gateway on this machine), QUORUM_BASE_URL, XDG_CACHE_HOME (cache folder),
  GITHUB_STEP_SUMMARY (when set, a Markdown summary of the review is appended to that file); for --post github:
  GITHUB_TOKEN (pull-requests: write), GITHUB_REPOSITORY (owner/name), GITHUB_EVENT_PATH, GITHUB_API_URL
  (default https://api.github.com); for --post gitlab: GITLAB_TOKEN (api scope; CI_JOB_TOKEN cannot post),
  CI_API_V4_URL (else CI_SERVER_URL/api/v4), CI_PROJECT_ID, CI_MERGE_REQUEST_IID.
Exit codes: 0 done, 1 a finding at or above --fail-on, 2 usage error, 3 an agent failed (also when a finding
  is at or above --fail-on: 3 always wins when the gateway refused the key (auth, forbidden) or the quota is
  spent, so CI never passes on them; with --post also when GitHub or GitLab refuses the token or the post), 130
  interrupted.`;

export const EVAL_USAGE = `Usage: quorum eval [options]

Runs agents over a labelled corpus and scores them: precision, recall, F1, false positives per clean case,
cost, cost per true finding, p50/p95 latency and failures (README: "Evaluating models").

Options:
  --corpus DIR             a corpus folder (default: the corpus shipped with Quorum)
  --context on|off         send each case the definitions and callers its folder's other files hold (default on)
  --context-tokens <n>     tokens of context per case at most (default ${DEFAULTS.context.maxTokens})
  --agents a,b,...         agents to score on their configured models (default analyst,architecture,security)
  --model agent=model      another model for an agent of --agents (repeatable)
  --compare agent=m1,m2    score an agent on up to 5 models (repeatable); only the agents named run
  --format text|json|html  what to print (html needs --output; default text)
  --output FILE            write the chosen format to FILE and print the text table
  --max-concurrency N      requests in flight at once (default ${DEFAULTS.limits.maxConcurrent})
  --base-url URL           the gateway (default: $QUORUM_BASE_URL, else ${DEFAULT_BASE_URL})
  --language CODE          language of the review text (default: from LC_ALL / LANG)
  --timeout SECONDS        longest one request may take, retries included (default ${DEFAULTS.limits.deadlineSeconds})
  --verify cross-model|same-model|off   verify each case's findings too, and print precision, recall and F1
                           with and without verification side by side, with the verifier's cost
                           (--model verifier=MODEL picks its model; default off)

Exit codes: 0 done (failed cases are counted, not fatal), 2 usage error or malformed corpus, 130 interrupted.`;

export const MCP_USAGE = `Usage: quorum mcp [options]

Runs Quorum as a Model Context Protocol server over stdio (for Claude Code, VS Code agent mode, Cursor, Codex…).
Tools: review_changes, review_file, estimate. Nothing but protocol is written to stdout; logs go to stderr.

Options (as for quorum review):
  --base-url URL           the gateway (default: $QUORUM_BASE_URL, else ${DEFAULT_BASE_URL})
  --model agent=model      use another model for an agent (repeatable)
  --language CODE          language of the review text (default: from LC_ALL / LANG)
  --no-rules               leave out the repository's rules and agents (.quorum/, AGENTS.md)
  --context on|off         send definitions, callers and enclosing signatures of the reviewed code (default on)
  --context-tokens <n>     tokens of context per request at most (default ${DEFAULTS.context.maxTokens})
  --no-cache               neither read nor write the disk cache
  --cache-dir DIR          the disk cache (default: $XDG_CACHE_HOME/quorum, else ~/.cache/quorum)
  --cache-ttl MINUTES      how long cached answers are served (default ${DEFAULT_CACHE_TTL_MINUTES} = 7 days; 0 = off)
  --max-concurrency N      requests in flight at once (default ${DEFAULTS.limits.maxConcurrent})
  --timeout SECONDS        longest one agent's request may take, retries included (default ${DEFAULTS.limits.deadlineSeconds})

Environment: QUORUM_API_KEY (required to review; estimate works without it), QUORUM_BASE_URL, XDG_CACHE_HOME.`;
