// Search Codes… and Index the Catalog for Search. The quick pick searches, as a person types, what
// search knows of the current service (store.ts): every list, tag and code view seen, and the whole
// catalog once indexed. Index the Catalog pages the service's lists to their ends with a progress
// notification that counts codes and can be cancelled; what it read is kept whatever stops it.
import * as vscode from 'vscode';
import { notificationText, showInformationMessage } from '../common/notifications';
import { IndexingCancelled, IndexingError, indexCatalog, type IndexRunResult } from '../../search/indexer';
import type { CodeSearch, SearchHit } from '../../search/searchIndex';
import { escapeIcons } from '../common/labels';
import { Commands } from '../common/commandIds';
import type { ErrorReporter } from '../common/errorReporting';
import { codeCount, refactoringCount, titleOf, words } from '../common/names';
import type { ServiceConnection } from '../service';
import type { SettingsSource } from '../common/settings';
import type { SearchStore, ServiceIndex } from './store';

/** Results the quick pick shows. */
const SHOWN_RESULTS = 50;
/** How long indexing works before it gives the extension host back (ms). */
const SLICE_MS = 12;

export interface SearchDeps {
  service: ServiceConnection;
  store: SearchStore;
  errors: ErrorReporter;
  /** The Catalog's language filter ('' for all). */
  language(): string;
  /** The saved tags (refactorBrowser.tags), whose codes indexing reads too. */
  settings: SettingsSource;
  /** Opens the code view of `codeId`, scrolled to `refactorId`. */
  open(codeId: number, refactorId?: number): void;
}

interface HitPick extends vscode.QuickPickItem {
  hit?: SearchHit;
  /** A row that runs Index the Catalog instead of opening a code. */
  index?: true;
}

/** Gives the host back to VS Code (a macrotask), so that a long job never freezes it. */
function yieldToHost(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Indexes what is pending in slices, giving the host back between them. */
async function flushInSlices(index: CodeSearch): Promise<void> {
  while (index.flushUntil(performance.now() + SLICE_MS) > 0) await yieldToHost();
}

/** `just now`, `3 minutes ago`, `yesterday`, in the display language. */
export function age(at: number, now = Date.now()): string {
  const seconds = Math.round((at - now) / 1000);
  const format = new Intl.RelativeTimeFormat(vscode.env.language, { numeric: 'auto' });
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [['day', 86400], ['hour', 3600], ['minute', 60]];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return vscode.l10n.t('just now');
}

/** What the index holds and how old it is, as the quick pick's placeholder says it. */
export function describeIndex(index: CodeSearch, service: string): string {
  const { codes, refactors } = index.counts();
  if (codes === 0 && refactors === 0) return vscode.l10n.t('Search knows no code of {0} yet: index the catalog, or browse it', service);
  if (index.indexedAt === 0) {
    return vscode.l10n.t('Search {0} and {1} seen while browsing (the catalog is not indexed)', codeCount(codes), refactoringCount(refactors));
  }
  return vscode.l10n.t('Search {0} and {1} (indexed {2})', codeCount(codes), refactoringCount(refactors), age(index.indexedAt));
}

function hitPick(h: SearchHit): HitPick {
  const title = titleOf(h.kind === 'refactor' ? { id: h.refactorId ?? 0, codeId: h.codeId, title: h.title } : { id: h.codeId, title: h.title });
  const author = h.author || words.anonymous;
  const of = h.kind === 'refactor' ? vscode.l10n.t('refactoring of {0}', titleOf({ id: h.codeId, title: h.codeTitle ?? '' })) : undefined;
  return {
    // Every row is always shown: the index chose them, and VS Code's own filter would hide the ones
    // found by a typo or in the code text.
    alwaysShow: true,
    label: escapeIcons(title),
    description: escapeIcons([of, h.language, author].filter(Boolean).join(' · ')),
    detail: escapeIcons(h.line),
    iconPath: new vscode.ThemeIcon(h.kind === 'refactor' ? 'git-compare' : 'file-code'),
    hit: h,
  };
}

function indexPick(): HitPick {
  return {
    alwaysShow: true,
    label: vscode.l10n.t('Index the Catalog for Search'),
    detail: vscode.l10n.t('Read every code and refactoring of the service, so that search finds all of them'),
    iconPath: new vscode.ThemeIcon('database'),
    index: true,
  };
}

export function registerSearchCommands(deps: SearchDeps): vscode.Disposable {
  return vscode.Disposable.from(
    deps.errors.command(Commands.search, vscode.l10n.t('Could not search'), () => searchCodes(deps)),
    deps.errors.command(Commands.indexCatalog, vscode.l10n.t('Could not index the catalog'), () => indexCatalogFor(deps)),
  );
}

/** The name a person knows the current service by: its address, or the built-in sample catalog. */
function serviceName(service: ServiceConnection): string {
  return service.isBuiltIn() ? vscode.l10n.t('the built-in sample catalog') : service.configuredUrl();
}

/** Shows the quick pick; resolves once it is closed (a result opened or not). */
async function searchCodes(deps: SearchDeps): Promise<void> {
  const kept = deps.store.of(deps.service.name());
  const pick = vscode.window.createQuickPick<HitPick>();
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  pick.busy = true;
  let index: CodeSearch | undefined;
  /** The Catalog's language filter, which the buttons turn off and on again. */
  const filtered = deps.language();
  let language = filtered;
  const allButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('filter-filled'), tooltip: vscode.l10n.t('Search All Languages') };
  const filterButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('filter'), tooltip: vscode.l10n.t('Search {0} Only', filtered) };

  const render = (): void => {
    pick.title = language ? vscode.l10n.t('Search Codes in {0}', language) : vscode.l10n.t('Search Codes');
    pick.buttons = filtered ? [language ? allButton : filterButton] : [];
    if (!index) return;
    pick.placeholder = describeIndex(index, serviceName(deps.service));
    const { codes, refactors } = index.counts();
    const offerIndex = index.indexedAt === 0 && !kept.indexing;
    if (codes + refactors === 0) {
      pick.items = offerIndex ? [indexPick()] : [];
      return;
    }
    const hits = index.search(pick.value, { language, limit: SHOWN_RESULTS }).map(hitPick);
    const none: HitPick[] = pick.value.trim() && hits.length === 0
      ? [{ alwaysShow: true, label: language ? vscode.l10n.t('No code in {0} matches', language) : vscode.l10n.t('No code matches'), iconPath: new vscode.ThemeIcon('search-stop') }]
      : [];
    pick.items = [...hits, ...none, ...(offerIndex && pick.value.trim() ? [indexPick()] : [])];
  };

  return new Promise<void>((resolve) => {
    const subscriptions: vscode.Disposable[] = [
      pick.onDidChangeValue(() => render()),
      pick.onDidTriggerButton((button) => {
        language = button === allButton ? '' : filtered;
        render();
      }),
      pick.onDidAccept(() => {
        const chosen = pick.selectedItems[0];
        if (!chosen || (!chosen.hit && !chosen.index)) return;
        pick.hide();
        if (chosen.index) void vscode.commands.executeCommand(Commands.indexCatalog);
        else if (chosen.hit) deps.open(chosen.hit.codeId, chosen.hit.refactorId);
      }),
      pick.onDidHide(() => {
        for (const s of subscriptions) s.dispose();
        pick.dispose();
        resolve();
      }),
    ];
    render();
    pick.show();
    kept.index().then(
      (loaded) => {
        index = loaded;
        pick.busy = false;
        render();
      },
      (e: unknown) => {
        pick.hide();
        void deps.errors.report(vscode.l10n.t('Could not read the search index'), e);
      },
    );
  });
}

/** Index the Catalog, with a cancellable progress notification; resolves with the run's result when it ends. */
export async function indexCatalogFor(deps: SearchDeps): Promise<IndexRunResult | undefined> {
  const kept = deps.store.of(deps.service.name());
  if (kept.indexing) {
    void showInformationMessage(vscode.l10n.t('{0} is being indexed already.', serviceName(deps.service)));
    return undefined;
  }
  return kept.whileIndexing(runIndexing(deps, kept));
}

async function runIndexing(deps: SearchDeps, kept: ServiceIndex): Promise<IndexRunResult | undefined> {
  const name = serviceName(deps.service);
  const client = await deps.service.getClient();
  const { tags } = deps.settings.current;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: notificationText(vscode.l10n.t('Indexing {0} for search', name)), cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const cancelled = token.onCancellationRequested(() => controller.abort());
      const index = await kept.index();
      const report = (): void => {
        const { codes, refactors } = index.counts();
        progress.report({ message: vscode.l10n.t('{0}, {1}', codeCount(codes), refactoringCount(refactors)) });
      };
      report();
      let outcome: IndexRunResult | undefined;
      let failure: unknown;
      try {
        outcome = await indexCatalog({
          source: client.unobserved(), index, tags, signal: controller.signal,
          onProgress: report,
          afterPage: async () => {
            // A page is 25 codes: index them now, in slices, rather than all at the end.
            await flushInSlices(index);
          },
        });
      } catch (e) {
        failure = e;
      } finally {
        cancelled.dispose();
      }
      progress.report({ message: vscode.l10n.t('saving…') });
      await flushInSlices(index);
      await kept.saveIndex();
      const { codes, refactors } = index.counts();
      if (failure instanceof IndexingCancelled) {
        void showInformationMessage(vscode.l10n.t('Indexing was cancelled: search knows {0} and {1} of {2}.', codeCount(codes), refactoringCount(refactors), name));
        return undefined;
      }
      if (failure instanceof IndexingError) {
        void deps.errors.report(vscode.l10n.t('Could not index the catalog (search keeps what it knows: {0})', codeCount(codes)), failure);
        return undefined;
      }
      if (failure) throw failure as unknown;
      const said = outcome?.full
        ? vscode.l10n.t('Search knows all {0} and {1} of {2}. Search is full: it keeps no more codes.', codeCount(codes), refactoringCount(refactors), name)
        : vscode.l10n.t('Search knows all {0} and {1} of {2}.', codeCount(codes), refactoringCount(refactors), name);
      void showInformationMessage(said);
      return outcome;
    },
  );
}
