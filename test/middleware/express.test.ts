import { describeReceiverMount } from './receiver-scenarios.js';

describeReceiverMount('express');
