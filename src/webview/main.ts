import './zodConfig';
import { App, type VsCodeApi } from './app';

declare function acquireVsCodeApi(): VsCodeApi;

const root = document.getElementById('app');
if (root) new App(root, acquireVsCodeApi()).start();
