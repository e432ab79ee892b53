import { HOSTED_PAGE_PATHS } from '@authz/shared/protocol';
import type { Registry } from '../../registry.js';
import type { Route } from '../route.js';
import {
  decideWalletLink,
  showWalletLinkOutcome,
  showWalletLinkPage,
  startWalletLink,
} from './wallet-link-page.js';
import { returnFromWallet } from './wallet-return-page.js';
import {
  decideWalletLogin,
  readWalletLoginStatus,
  showWalletLoginPage,
  showWalletLoginWaiting,
  startWalletLogin,
} from './wallet-login-page.js';

/** docs/decisions.md #25: every wallet page is the 404 page, before anything else, while off. */
const walletAvailable = (deps: Registry) => deps.wallet.isAvailable();

/** interface.md 4.5, the wallet table. */
export const WALLET_ROUTES: readonly Route[] = [
  {
    path: HOSTED_PAGE_PATHS.walletLogin,
    exists: walletAvailable,
    methods: { GET: showWalletLoginPage, POST: startWalletLogin },
  },
  {
    path: HOSTED_PAGE_PATHS.walletLogin,
    takesSegment: true,
    exists: walletAvailable,
    methods: { GET: showWalletLoginWaiting },
  },
  {
    path: HOSTED_PAGE_PATHS.walletLogin,
    takesSegment: true,
    segmentSuffix: '/status',
    exists: walletAvailable,
    methods: { GET: readWalletLoginStatus, POST: decideWalletLogin },
  },
  {
    path: HOSTED_PAGE_PATHS.walletLink,
    exists: walletAvailable,
    methods: { GET: showWalletLinkPage, POST: startWalletLink },
  },
  {
    path: HOSTED_PAGE_PATHS.walletLink,
    takesSegment: true,
    exists: walletAvailable,
    methods: { GET: showWalletLinkOutcome, POST: decideWalletLink },
  },
  {
    path: HOSTED_PAGE_PATHS.walletReturn,
    exists: walletAvailable,
    methods: { GET: returnFromWallet },
  },
];
